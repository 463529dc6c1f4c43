/** Placeholder: the monitoring dashboard (issue 9) replaces this module. */
export default function MonitoringPage() {
  return (
    <section>
      <h1>Monitoring</h1>
    </section>
  );
}

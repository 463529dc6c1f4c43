/** A panel of the Service tab: a titled card, the whole row when `wide`. */
export function Card({
  id,
  title,
  wide,
  children,
}: {
  id: string;
  title: string;
  wide?: boolean;
  children: React.ReactNode;
}) {
  return (
    <section
      className={`mon-panel${wide ? ' mon-panel-wide' : ' mon-panel-timeseries'}`}
      aria-labelledby={`panel-${id}`}
      data-panel={id}
      data-state="ok"
    >
      <header className="mon-panel-head">
        <h3 id={`panel-${id}`}>{title}</h3>
      </header>
      <div className="mon-panel-body">{children}</div>
    </section>
  );
}

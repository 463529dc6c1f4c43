/**
 * A second reader of every log line, attached after the logger exists: the telemetry wiring
 * attaches the OTLP log sink here when MONITOR_OTLP_* are set.
 */
export class LogTap {
  private sinks: ((line: string) => void)[] = [];

  attach(sink: (line: string) => void): () => void {
    this.sinks.push(sink);
    return () => {
      this.sinks = this.sinks.filter((s) => s !== sink);
    };
  }

  write(line: string): void {
    for (const sink of this.sinks) {
      try {
        sink(line);
      } catch {
        // a failing sink must never break logging
      }
    }
  }
}

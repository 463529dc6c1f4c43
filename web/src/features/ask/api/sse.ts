/** One server-sent event: its `event:` name (default `message`) and its `data:` lines joined. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * A small parser of the server-sent events wire format, fed chunk by chunk as they arrive: a line
 * or a multi-byte character may be split across chunks. Lines end in LF, CRLF or CR; a blank line
 * ends an event; `:` lines are comments (keep-alives); other fields (`id`, `retry`) are ignored.
 * The text held back for an unfinished line is bounded: past `maxLine` characters the stream is not
 * the one we asked for, and the parser throws.
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly onEvent: (e: SseEvent) => void,
    private readonly maxLine = 1_000_000,
  ) {}

  /** bytes (decoded as UTF-8 across chunk ends) or text */
  feed(chunk: Uint8Array | string): void {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    let start = 0;
    for (;;) {
      const cr = this.buffer.indexOf('\r', start);
      const lf = this.buffer.indexOf('\n', start);
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (end === -1) break;
      // a CR at the very end may be the first half of a CRLF: wait for the next chunk
      if (end === cr && end === this.buffer.length - 1) break;
      this.line(this.buffer.slice(start, end));
      start = end + (end === cr && this.buffer[end + 1] === '\n' ? 2 : 1);
    }
    this.buffer = this.buffer.slice(start);
    if (this.buffer.length > this.maxLine) throw new Error('server-sent event line too long');
  }

  /** the stream ended: an event not closed by a blank line is dropped (as the standard says) */
  end(): void {
    this.decoder.decode();
    this.buffer = '';
    this.event = '';
    this.data = [];
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length) this.onEvent({ event: this.event || 'message', data: this.data.join('\n') });
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
  }
}

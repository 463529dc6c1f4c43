import { Writable } from 'node:stream';

/** A write stream that keeps what is written (and claims to be a TTY or not), for CLI output tests. */
export function captureStream(tty: boolean): { s: NodeJS.WriteStream; out: () => string } {
  let out = '';
  const s = new Writable({
    write(chunk: Buffer, _e, done) {
      out += chunk.toString();
      done();
    },
  }) as Writable & { isTTY?: boolean };
  s.isTTY = tty;
  return { s: s as unknown as NodeJS.WriteStream, out: () => out };
}

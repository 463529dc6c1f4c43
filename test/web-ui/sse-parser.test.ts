import { describe, expect, it } from 'vitest';
import { SseParser, type SseEvent } from '../../web/src/features/ask/api/sse';

const WIRE =
  ': keep-alive\n\n' +
  'event: retrieved\ndata: {"passages":[{"n":1}]}\n\n' +
  'event: delta\r\ndata: {"text":"Ohm’s law holds [1]. "}\r\n\r\n' +
  'event: delta\rdata: {"text":"量子臨界 [1]。"}\r\r' +
  'data: line one\ndata: line two\nid: 7\nretry: 10\n\n' +
  'event: answer\ndata:{"answer":"x"}\n\n';

const EXPECTED: SseEvent[] = [
  { event: 'retrieved', data: '{"passages":[{"n":1}]}' },
  { event: 'delta', data: '{"text":"Ohm’s law holds [1]. "}' },
  { event: 'delta', data: '{"text":"量子臨界 [1]。"}' },
  { event: 'message', data: 'line one\nline two' },
  { event: 'answer', data: '{"answer":"x"}' },
];

function parseIn(chunks: Uint8Array[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = new SseParser((e) => events.push(e));
  for (const c of chunks) parser.feed(c);
  parser.end();
  return events;
}

describe('the server-sent events parser of the answer page', () => {
  it('reads events with LF, CRLF and CR line ends, comments, multi-line data and other fields', () => {
    expect(parseIn([new TextEncoder().encode(WIRE)])).toEqual(EXPECTED);
  });

  it('reads the same events whatever the chunks: split lines, a split CRLF, split UTF-8 characters', () => {
    const bytes = new TextEncoder().encode(WIRE);
    for (let size = 1; size <= 13; size++) {
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      expect(parseIn(chunks), `chunks of ${size}`).toEqual(EXPECTED);
    }
  });

  it('drops an event the stream ended before its blank line, and refuses an endless line', () => {
    expect(parseIn([new TextEncoder().encode('event: answer\ndata: {"answer":"cut')])).toEqual([]);
    expect(parseIn([new TextEncoder().encode('event: answer\ndata: {}\n')])).toEqual([]);
    const parser = new SseParser(() => {}, 100);
    expect(() => parser.feed(`data: ${'x'.repeat(200)}`)).toThrow(/too long/);
  });
});

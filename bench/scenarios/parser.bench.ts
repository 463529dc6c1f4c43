/**
 * Feed parsing throughput on the real-world corpus (test/fixtures/feeds): bytes decoded by their
 * charset, then `parseFeed` (well-formedness check, feedsmith, normalisation to FeedEntry) over
 * every feed, in MB/s. The floor is a bare fast-xml-parser parse of the same XML in the same run
 * (no validation, no feed semantics), so the ratio says what the feed door costs over raw XML.
 * A second figure: HTML to text (page extraction) on article-like HTML, in MB/s.
 */
import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { htmlToText, decodeBody, parseFeed } from '../../src/composition/bench-entry.js';
import type { Scenario } from '../types.js';

const dir = new URL('../../test/fixtures/feeds/', import.meta.url);

function timeLoop(minMs: number, fn: () => void): number {
  fn(); // warm-up
  let rounds = 0;
  const t0 = performance.now();
  do {
    fn();
    rounds++;
  } while (performance.now() - t0 < minMs);
  return (performance.now() - t0) / rounds;
}

export const scenarios: Scenario[] = [
  {
    name: 'parser',
    run(ctx) {
      const corpus = (
        JSON.parse(readFileSync(new URL('expected.json', dir), 'utf8')) as {
          file: string;
          baseUrl: string;
          contentType?: string;
          error?: string;
        }[]
      )
        .filter((e) => !e.error)
        .map((e) => {
          const bytes = readFileSync(new URL(e.file, dir));
          return { ...e, bytes: bytes.byteLength, text: decodeBody(bytes, e.contentType).text };
        });
      const mb = corpus.reduce((n, e) => n + e.bytes, 0) / 1024 / 1024;
      const minMs = ctx.quick ? 300 : 3000;
      let entries = 0;
      const ours = timeLoop(minMs, () => {
        entries = 0;
        for (const e of corpus) entries += parseFeed(e.text, e.baseUrl).length;
      });
      const raw = new XMLParser({ ignoreAttributes: false, processEntities: true });
      const xml = corpus.filter((e) => !e.file.endsWith('.json'));
      const floor = timeLoop(minMs, () => {
        for (const e of xml) raw.parse(e.text);
      });
      const page = `<html><head><title>T</title><script>var a=1</script></head><body><nav>n</nav><article>${'<p>Sparse attention cuts the memory of protein folding models &amp; keeps <b>accuracy</b>.</p>'.repeat(20_000)}</article></body></html>`;
      const pageMs = timeLoop(minMs, () => htmlToText(page));
      const mbps = mb / (ours / 1000);
      const floorMbps = mb / (floor / 1000);
      const htmlMbps = page.length / 1024 / 1024 / (pageMs / 1000);
      return Promise.resolve([
        {
          scenario: 'parser corpus',
          figure: Number(mbps.toFixed(2)),
          unit: 'MB/s',
          floor: Number(floorMbps.toFixed(2)),
          ratio: Number((floorMbps / mbps).toFixed(2)),
          // a ratio to the floor of the same run holds on a loaded machine, a bare MB/s does not
          budget: 'bare XML parse / ours <= 6',
          pass: floorMbps / mbps <= 6,
          notes: `${corpus.length} feeds, ${mb.toFixed(2)} MB, ${entries} entries, ${ours.toFixed(1)} ms a pass; floor: bare fast-xml-parser`,
        },
        {
          scenario: 'parser html-to-text',
          figure: Number(htmlMbps.toFixed(2)),
          unit: 'MB/s',
          budget: '>= 2 MB/s',
          pass: htmlMbps >= 2,
          notes: `${(page.length / 1024 / 1024).toFixed(2)} MB article page, ${pageMs.toFixed(1)} ms`,
        },
      ]);
    },
  },
];

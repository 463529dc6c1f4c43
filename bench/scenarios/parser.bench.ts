/**
 * Feed parsing throughput on the real-world corpus (test/fixtures/feeds): bytes decoded by their
 * charset, then `parseFeed` (well-formedness check, feedsmith, normalisation to FeedEntry) over
 * every feed, in MB/s. The floor is a bare fast-xml-parser parse of the same XML in the same run
 * (no validation, no feed semantics), so the ratio says what the feed door costs over raw XML.
 * A second figure: HTML to text (page extraction) on article-like HTML, in MB/s. ROUNDS rounds
 * time the three in turns; each figure is the median of the rounds (of the ratio for the corpus,
 * whose budget is one: bench/types.ts `Rounds`).
 */
import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { htmlToText, decodeBody, parseFeed } from '../../src/composition/bench-entry.js';
import type { Scenario } from '../types.js';
import { median, roundsOf } from '../rounds.js';

const ROUNDS = 5;

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
      // each round times every loop for at least minMs
      const minMs = ctx.quick ? 100 : 1000;
      let entries = 0;
      const raw = new XMLParser({ ignoreAttributes: false, processEntities: true });
      const xml = corpus.filter((e) => !e.file.endsWith('.json'));
      const page = `<html><head><title>T</title><script>var a=1</script></head><body><nav>n</nav><article>${'<p>Sparse attention cuts the memory of protein folding models &amp; keeps <b>accuracy</b>.</p>'.repeat(20_000)}</article></body></html>`;
      const pageMb = page.length / 1024 / 1024;
      const rounds: { ours: number; floor: number; pageMs: number }[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const ours = timeLoop(minMs, () => {
          entries = 0;
          for (const e of corpus) entries += parseFeed(e.text, e.baseUrl).length;
        });
        const floor = timeLoop(minMs, () => {
          for (const e of xml) raw.parse(e.text);
        });
        const pageMs = timeLoop(minMs, () => htmlToText(page));
        rounds.push({ ours, floor, pageMs });
      }
      const mbps = median(rounds.map((r) => mb / (r.ours / 1000)));
      const floorMbps = median(rounds.map((r) => mb / (r.floor / 1000)));
      // a round's ratio: bare parse MB/s / ours = our time a pass / the bare parse's
      const ratio = roundsOf(
        rounds.map((r) => r.ours / r.floor),
        'ratio',
      );
      const html = roundsOf(
        rounds.map((r) => pageMb / (r.pageMs / 1000)),
        'figure',
      );
      return Promise.resolve([
        {
          scenario: 'parser corpus',
          figure: Number(mbps.toFixed(2)),
          unit: 'MB/s',
          floor: Number(floorMbps.toFixed(2)),
          ratio: ratio.median,
          // a ratio to the floor of the same run holds on a loaded machine, a bare MB/s does not
          budget: 'bare XML parse / ours <= 6',
          rounds: ratio,
          pass: ratio.median <= 6,
          notes: `${corpus.length} feeds, ${mb.toFixed(2)} MB, ${entries} entries, ${median(rounds.map((r) => r.ours)).toFixed(1)} ms a pass (median of ${ROUNDS} rounds); floor: bare fast-xml-parser`,
        },
        {
          scenario: 'parser html-to-text',
          figure: html.median,
          unit: 'MB/s',
          budget: '>= 2 MB/s',
          rounds: html,
          pass: html.median >= 2,
          notes: `${pageMb.toFixed(2)} MB article page, ${median(rounds.map((r) => r.pageMs)).toFixed(1)} ms (median of ${ROUNDS} rounds)`,
        },
      ]);
    },
  },
];

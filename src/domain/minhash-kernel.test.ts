import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_HASHES, minhashKernel } from './minhash-kernel.js';
import {
  fingerprint,
  MAX_WORDS,
  MINHASH_SIZE,
  scalarSignature,
  SEEDS,
  shingleHashes,
  signatureToText,
  words,
} from './works.js';

/** Real text in many scripts and encodings: the feed corpus (test/fixtures/feeds/SOURCES.md). */
function corpusTexts(): { file: string; text: string }[] {
  const root = join(import.meta.dirname, '../../test/fixtures/feeds');
  const out: { file: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push({ file: path.slice(root.length + 1), text: readFileSync(path, 'latin1') });
    }
  };
  walk(root);
  return out;
}

/** a small deterministic generator (xorshift32) */
function* randomWords(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    yield x >>> 0;
  }
}

describe('the MinHash kernel', () => {
  const kernel = minhashKernel(SEEDS);

  it('runs here: Node 24 has WebAssembly SIMD', () => {
    expect(kernel).not.toBeNull();
  });

  it('gives the scalar loop’s signature, bit for bit, on every text of the feed corpus', () => {
    const texts = corpusTexts();
    expect(texts.length).toBeGreaterThan(30);
    let compared = 0;
    for (const { file, text } of texts) {
      // whole files and their halves: long and short shingle sets
      for (const part of [text, text.slice(0, text.length >> 1), text.slice(text.length >> 1)]) {
        const hashes = shingleHashes(part);
        const f = fingerprint(part);
        if (!f) continue;
        expect(f.shingles).toBe(hashes.length);
        expect([file, signatureToText(f.signature)]).toEqual([
          file,
          signatureToText(scalarSignature(hashes)),
        ]);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(60);
  });

  it('gives the scalar loop’s signature at the edges: one hash, extreme values, the most a call takes', () => {
    const next = randomWords(0x2545f491);
    const cases: number[][] = [
      [0],
      [0xffffffff],
      [0, 0xffffffff, 0x80000000, 0x7fffffff],
      Array.from({ length: 1_000 }, () => next.next().value as number),
      Array.from({ length: MAX_HASHES }, () => next.next().value as number),
    ];
    for (const hashes of cases) {
      expect(signatureToText(kernel!.signature(hashes))).toBe(signatureToText(scalarSignature(hashes)));
    }
    // no hashes: every minimum stays at its start
    expect([...kernel!.signature([])]).toEqual(new Array(MINHASH_SIZE).fill(0xffffffff));
  });

  it('takes every shingle a text can have, and refuses more than its memory holds', () => {
    expect(MAX_WORDS).toBeLessThan(MAX_HASHES);
    expect(() => kernel!.signature(new Uint32Array(MAX_HASHES + 1))).toThrow(RangeError);
    const longest = Array.from({ length: MAX_WORDS + 50 }, (_, i) => `w${i}`).join(' ');
    expect(shingleHashes(longest)).toHaveLength(MAX_WORDS - 3);
  });

  it('splits words as the first implementation did (matchAll over letter and digit runs)', () => {
    const reference = (text: string): string[] => {
      const out: string[] = [];
      for (const m of text
        .normalize('NFKC')
        .toLowerCase()
        .matchAll(/[\p{L}\p{N}]+/gu)) {
        out.push(m[0]);
        if (out.length >= MAX_WORDS) break;
      }
      return out;
    };
    const edges = [
      '',
      ' ',
      '...',
      'one',
      ' one',
      'one ',
      ' one two ',
      'Ｆｕｌｌ　ｗｉｄｔｈ ① ｶﾀｶﾅ',
      '中文字 と かな',
    ];
    const many = Array.from({ length: MAX_WORDS + 5 }, (_, i) => `w${i}`);
    edges.push(many.join(' '), ` ${many.join(' ')}`, `${many.slice(0, MAX_WORDS).join(' ')} `);
    edges.push(` ${many.slice(0, MAX_WORDS + 1).join(' ')} `);
    for (const text of [...edges, ...corpusTexts().map((t) => t.text)])
      expect(words(text)).toEqual(reference(text));
  });

  it('returns a signature of its own: a later call does not change an earlier answer', () => {
    const a = kernel!.signature([1, 2, 3]);
    const before = signatureToText(a);
    kernel!.signature([4, 5, 6]);
    expect(signatureToText(a)).toBe(before);
  });
});

import { describe, expect, it } from 'vitest';
import {
  canonicalizeUrl,
  dedupCandidates,
  emptyKnownKeys,
  extractArxivId,
  extractDoi,
  normalizeTitle,
} from './dedup.js';

const TOPIC_A = 'topic-a';
const cand = (
  url: string,
  over: Partial<{ doi: string; arxivId: string; title: string; publishedAt: Date; topicId: string }> = {},
) => ({
  url,
  canonicalUrl: canonicalizeUrl(url),
  doi: over.doi ?? null,
  arxivId: over.arxivId ?? null,
  normalizedTitle: normalizeTitle(over.title ?? url),
  publishedAt: over.publishedAt ?? null,
  topicId: over.topicId ?? TOPIC_A,
  sourceId: `source-of-${over.topicId ?? TOPIC_A}`,
});

describe('de-duplication rules', () => {
  it('canonical URLs drop tracking parameters, fragments, www, default ports and trailing slashes', () => {
    expect(canonicalizeUrl('http://WWW.Example.org:80/a/b/?utm_source=x&b=2&a=1&fbclid=z#top')).toBe(
      'https://example.org/a/b?a=1&b=2',
    );
    expect(canonicalizeUrl('https://example.org/')).toBe('https://example.org');
    expect(canonicalizeUrl('https://example.org/x?ref=feed')).toBe('https://example.org/x');
    expect(canonicalizeUrl('https://example.org:8443/x')).toBe('https://example.org:8443/x');
  });

  it('finds DOIs and arXiv ids without their version', () => {
    expect(extractDoi('https://doi.org/10.1145/3580305.3599831.')).toBe('10.1145/3580305.3599831');
    expect(extractDoi('doi:10.1038/S41586-024-07000-1')).toBe('10.1038/s41586-024-07000-1');
    expect(extractArxivId('http://arxiv.org/abs/2401.01234v3')).toBe('2401.01234');
    expect(extractArxivId('https://arxiv.org/pdf/hep-th/9901001v1')).toBe('hep-th/9901001');
    expect(extractArxivId('arXiv:2312.00001')).toBe('2312.00001');
    expect(extractArxivId('10.48550/arXiv.2402.00002')).toBe('2402.00002');
    expect(extractArxivId('https://example.org/abs/1')).toBeNull();
  });

  it('normalized titles ignore case, accents and punctuation', () => {
    expect(normalizeTitle('  Déjà Vu: A Study of  "Memory"! ')).toBe('deja vu a study of memory');
  });

  it('keeps the first of each key and says why the others were skipped', () => {
    const known = emptyKnownKeys();
    known.doi.set('10.1/stored', 'https://stored.example/paper');
    const { fresh, skipped } = dedupCandidates(
      [
        cand('https://a.example/one', { title: 'The first article about graphs' }),
        cand('https://a.example/one?utm_campaign=x', { title: 'Other title entirely here' }),
        cand('https://b.example/two', { doi: '10.1/stored', title: 'Stored elsewhere paper title' }),
        cand('https://c.example/three', { arxivId: '2401.1', title: 'Arxiv paper number one here' }),
        cand('https://d.example/four', { arxivId: '2401.1', title: 'Same arxiv paper, other page' }),
        cand('https://e.example/five', { title: 'The FIRST article about graphs!' }),
        cand('https://f.example/six', { title: 'News' }),
        cand('https://g.example/seven', { title: 'News' }),
      ],
      known,
    );
    expect(fresh.map((f) => f.url)).toEqual([
      'https://a.example/one',
      'https://c.example/three',
      'https://f.example/six',
      'https://g.example/seven',
    ]);
    expect(skipped).toEqual([
      { url: 'https://a.example/one?utm_campaign=x', reason: 'url', duplicateOf: 'https://a.example/one' },
      { url: 'https://b.example/two', reason: 'doi', duplicateOf: 'https://stored.example/paper' },
      { url: 'https://d.example/four', reason: 'arxiv_id', duplicateOf: 'https://c.example/three' },
      { url: 'https://e.example/five', reason: 'title', duplicateOf: 'https://a.example/one' },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { dedupCandidates, emptyKnownKeys } from './dedup.js';
import { canonicalizeUrl, extractArxivId, normalizeTitle } from '../../domain/identifiers.js';
import { extractDoi } from '../../domain/doi.js';

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

  describe('what a skipped duplicate knows reaches the kept article', () => {
    const date = new Date('2026-11-03T09:00:00Z');
    const TITLE = 'Sparse attention for protein complexes';
    const syndicated = cand('https://aggregator.example/story/1', { title: TITLE });
    const publisher = cand('https://journal.example/paper/1', {
      title: TITLE,
      doi: '10.5555/p.1',
      arxivId: '2411.00001',
      publishedAt: date,
    });

    it('in one run, whichever copy comes first, the fresh article carries DOI, arXiv id and date', () => {
      for (const order of [
        [syndicated, publisher],
        [publisher, syndicated],
      ]) {
        const { fresh, skipped, enrichments } = dedupCandidates(order, emptyKnownKeys());
        expect(fresh).toHaveLength(1);
        expect(fresh[0]).toMatchObject({
          url: order[0]!.url,
          doi: '10.5555/p.1',
          arxivId: '2411.00001',
          publishedAt: date,
        });
        expect(skipped).toEqual([
          { url: order[1]!.url, reason: 'title', duplicateOf: order[0]!.canonicalUrl },
        ]);
        expect(enrichments).toEqual([]);
      }
      // the candidates given are left as they were
      expect(syndicated.doi).toBeNull();
    });

    it('a later copy with only the DOI finds the enriched article by it', () => {
      const doiOnly = cand('https://doi.example/landing', { title: 'Landing page', doi: '10.5555/p.1' });
      const { fresh, skipped } = dedupCandidates([syndicated, publisher, doiOnly], emptyKnownKeys());
      expect(fresh.map((f) => f.url)).toEqual([syndicated.url]);
      expect(skipped[1]).toEqual({ url: doiOnly.url, reason: 'doi', duplicateOf: syndicated.canonicalUrl });
    });

    it('a stored article lacking them gets an enrichment; one that has them does not', () => {
      const known = emptyKnownKeys();
      known.url.set(syndicated.canonicalUrl, syndicated.canonicalUrl);
      known.title.set(syndicated.normalizedTitle, syndicated.canonicalUrl);
      known.articles.set(syndicated.canonicalUrl, {
        doi: null,
        arxivId: null,
        publishedAt: null,
        topicIds: [TOPIC_A],
      });
      const first = dedupCandidates([publisher], known);
      expect(first.fresh).toEqual([]);
      expect(first.enrichments).toEqual([
        {
          canonicalUrl: syndicated.canonicalUrl,
          doi: '10.5555/p.1',
          arxivId: '2411.00001',
          publishedAt: date,
        },
      ]);
      // the same copy again (next run, the article now has them): nothing to fill
      const again = dedupCandidates([publisher], known);
      expect(again.enrichments).toEqual([]);
    });

    it('never copies an identifier another article holds', () => {
      const known = emptyKnownKeys();
      known.url.set(syndicated.canonicalUrl, syndicated.canonicalUrl);
      known.articles.set(syndicated.canonicalUrl, {
        doi: null,
        arxivId: null,
        publishedAt: null,
        topicIds: [TOPIC_A],
      });
      known.doi.set('10.5555/p.1', 'https://other.example/paper');
      // same URL as the stored syndicated copy, carrying a DOI that belongs to another article
      const copy = { ...cand(syndicated.url, { title: TITLE, doi: '10.5555/p.1' }) };
      const { enrichments, skipped } = dedupCandidates([copy], known);
      expect(skipped[0]!.reason).toBe('url');
      expect(enrichments).toEqual([]);
    });

    it('a copy from another topic links the kept article to it, once', () => {
      const known = emptyKnownKeys();
      known.url.set(syndicated.canonicalUrl, syndicated.canonicalUrl);
      known.articles.set(syndicated.canonicalUrl, {
        doi: null,
        arxivId: null,
        publishedAt: null,
        topicIds: [TOPIC_A],
      });
      const inB = { ...syndicated, topicId: 'topic-b', sourceId: 'source-of-topic-b' };
      const fresh = cand('https://new.example/x', { title: 'A brand new article here' });
      const freshInB = { ...fresh, topicId: 'topic-b', sourceId: 'source-of-topic-b' };
      const out = dedupCandidates([syndicated, inB, inB, fresh, freshInB, freshInB], known);
      expect(out.links).toEqual([
        { canonicalUrl: syndicated.canonicalUrl, topicId: 'topic-b', sourceId: 'source-of-topic-b' },
      ]);
      expect(out.fresh).toEqual([
        { ...fresh, alsoIn: [{ topicId: 'topic-b', sourceId: 'source-of-topic-b' }] },
      ]);
    });
  });

  describe('a preprint and its published version are two articles, not duplicates', () => {
    // an arXiv API entry: its own page, its arXiv id, and its journal version's DOI (arxiv:doi)
    const TITLE = 'Bounded model checking of smart contracts';
    const preprint = cand('http://arxiv.org/abs/1709.03221v2', {
      title: TITLE,
      arxivId: '1709.03221',
      doi: '10.1145/3106237.3106277',
    });
    const journal = cand('https://dl.acm.org/doi/10.1145/3106237.3106277', {
      title: TITLE,
      doi: '10.1145/3106237.3106277',
    });

    it('in one run, in either order: both are kept (the works link them by the shared DOI)', () => {
      for (const order of [
        [preprint, journal],
        [journal, preprint],
      ]) {
        const { fresh, skipped } = dedupCandidates(order, emptyKnownKeys());
        expect(fresh.map((f) => f.url)).toEqual(order.map((o) => o.url));
        expect(skipped).toEqual([]);
      }
    });

    it('the journal version of a stored preprint is stored; a second copy of either is still a duplicate', () => {
      const known = emptyKnownKeys();
      known.url.set(preprint.canonicalUrl, preprint.canonicalUrl);
      known.doi.set(preprint.doi!, preprint.canonicalUrl);
      known.arxiv_id.set(preprint.arxivId!, preprint.canonicalUrl);
      known.title.set(preprint.normalizedTitle, preprint.canonicalUrl);
      known.articles.set(preprint.canonicalUrl, {
        doi: preprint.doi,
        arxivId: preprint.arxivId,
        publishedAt: null,
        topicIds: [TOPIC_A],
      });
      const mirror = cand('https://export.arxiv.org/abs/1709.03221', { title: TITLE, arxivId: '1709.03221' });
      const reprint = cand('https://publisher.example/reprint/1', { title: TITLE, doi: journal.doi! });
      const { fresh, skipped } = dedupCandidates([journal, mirror, reprint], known);
      expect(fresh.map((f) => f.url)).toEqual([journal.url]);
      expect(skipped).toEqual([
        { url: mirror.url, reason: 'arxiv_id', duplicateOf: preprint.canonicalUrl },
        { url: reprint.url, reason: 'doi', duplicateOf: journal.canonicalUrl },
      ]);
    });

    it('a story without identifiers under the same title is still a copy of the paper', () => {
      const story = cand('https://news.example/story', { title: TITLE });
      const { fresh, skipped } = dedupCandidates([preprint, story], emptyKnownKeys());
      expect(fresh.map((f) => f.url)).toEqual([preprint.url]);
      expect(skipped).toEqual([{ url: story.url, reason: 'title', duplicateOf: preprint.canonicalUrl }]);
    });
  });
});

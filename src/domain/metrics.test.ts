import { describe, expect, it } from 'vitest';
import { normalizeArxivId, normalizeDoi, resolveIdentifiers } from './metrics.js';

const article = (over: Partial<Parameters<typeof resolveIdentifiers>[0]> = {}) => ({
  doi: null,
  arxivId: null,
  url: null,
  metadata: {},
  ...over,
});

describe('article identifiers', () => {
  it('prefers the columns, then metadata keys, then links', () => {
    expect(resolveIdentifiers(article({ doi: '10.1000/COL', metadata: { doi: '10.1000/meta' } })).doi).toBe(
      '10.1000/col',
    );
    expect(resolveIdentifiers(article({ metadata: { doi: 'https://doi.org/10.5555/Abc.1' } })).doi).toBe(
      '10.5555/abc.1',
    );
    expect(resolveIdentifiers(article({ metadata: { link: 'https://dx.doi.org/10.7000/x-y' } })).doi).toBe(
      '10.7000/x-y',
    );
    expect(resolveIdentifiers(article({ url: 'https://arxiv.org/pdf/2401.00001v3' }))).toEqual({
      doi: null,
      arxivId: '2401.00001',
    });
    expect(resolveIdentifiers(article({ metadata: { arxiv_id: 'arXiv:hep-th/9901001v1' } })).arxivId).toBe(
      'hep-th/9901001',
    );
  });

  it('reads the arXiv id from an arXiv DataCite DOI', () => {
    expect(resolveIdentifiers(article({ metadata: { doi: '10.48550/arXiv.2310.12345' } }))).toEqual({
      doi: '10.48550/arxiv.2310.12345',
      arxivId: '2310.12345',
    });
  });

  it('refuses what is not an identifier', () => {
    expect(normalizeDoi('not a doi')).toBeNull();
    expect(normalizeArxivId('2401')).toBeNull();
    expect(resolveIdentifiers(article({ url: 'https://example.com/post', metadata: { doi: 42 } }))).toEqual({
      doi: null,
      arxivId: null,
    });
  });
});

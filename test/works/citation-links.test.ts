import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpPeer, sendJson, type RecordedRequest } from '../peers/http-peer.js';
import {
  CrossrefSource,
  OpenAlexSource,
  SemanticScholarSource,
} from '../../src/infrastructure/citations/citation-sources.js';
import type { IdentifierLink } from '../../src/domain/works.js';

/**
 * The citation sources hand the identifiers their answers link to the works area, from the
 * answers they receive for the count: one request per lookup, as before. The answer bodies follow
 * the APIs' documented shapes; the identifiers are those of one real paper (arXiv 0704.0001,
 * published as Phys. Rev. D 76, 013009, as the arXiv metadata records it).
 */
const DOI = '10.1103/PhysRevD.76.013009';
const ARXIV = '0704.0001';

describe('identifier links from citation answers (API peers on loopback)', () => {
  const seen: RecordedRequest[] = [];
  const peer = new HttpPeer((req, res) => {
    seen.push(req);
    if (req.path.startsWith('/s2/graph/v1/paper/batch'))
      return sendJson(res, 200, [
        { paperId: 'p', citationCount: 5, externalIds: { DOI, ArXiv: ARXIV, CorpusId: 1 } },
        null,
      ]);
    if (req.path.startsWith('/s2/graph/v1/paper/'))
      return sendJson(res, 200, { paperId: 'p', citationCount: 5, externalIds: { DOI, ArXiv: ARXIV } });
    if (req.path.startsWith('/oa/works/'))
      return sendJson(res, 200, {
        id: 'https://openalex.org/W1',
        doi: `https://doi.org/${DOI}`,
        ids: { doi: `https://doi.org/${DOI}` },
        cited_by_count: 6,
        locations: [
          { landing_page_url: `https://doi.org/${DOI}`, pdf_url: null },
          { landing_page_url: `https://arxiv.org/abs/${ARXIV}`, pdf_url: `https://arxiv.org/pdf/${ARXIV}` },
        ],
      });
    if (req.path.startsWith('/cr/works/'))
      return sendJson(res, 200, {
        status: 'ok',
        message: {
          DOI,
          'is-referenced-by-count': 7,
          relation: {
            'has-preprint': [{ 'id-type': 'arxiv', id: `arXiv:${ARXIV}`, 'asserted-by': 'subject' }],
            // a comment on the paper is another work: not a version
            'has-comment': [{ 'id-type': 'doi', id: '10.1103/comment.1', 'asserted-by': 'object' }],
          },
        },
      });
    sendJson(res, 404, {});
  });
  const links: IdentifierLink[] = [];
  const opts = {
    requestsPerSecond: 1000,
    backoffMs: 5,
    onLinks: async (l: IdentifierLink[]) => void links.push(...l),
  };

  beforeAll(() => peer.start());
  afterAll(() => peer.stop());

  it('Semantic Scholar, OpenAlex and Crossref answers give the same link, one request each', async () => {
    const expected = { from: `doi:${DOI.toLowerCase()}`, to: `arxiv:${ARXIV}` };
    const ids = { doi: DOI.toLowerCase(), arxivId: null };

    expect(await new SemanticScholarSource(`${peer.url}/s2`, opts).citations(ids)).toBe(5);
    expect(links).toEqual([{ ...expected, evidence: 'semantic_scholar:externalIds' }]);
    links.length = 0;
    expect(
      await new SemanticScholarSource(`${peer.url}/s2`, opts).citationsBatch([
        ids,
        { doi: '10.1/x', arxivId: null },
      ]),
    ).toEqual([5, null]);
    expect(links).toEqual([{ ...expected, evidence: 'semantic_scholar:externalIds' }]);
    links.length = 0;
    expect(await new OpenAlexSource(`${peer.url}/oa`, opts).citations(ids)).toBe(6);
    expect(links).toEqual([{ ...expected, evidence: 'openalex:locations' }]);
    links.length = 0;
    expect(await new CrossrefSource(`${peer.url}/cr`, opts).citations(ids)).toBe(7);
    expect(links).toEqual([{ ...expected, evidence: 'crossref:has-preprint' }]);
    // the batch asked once; the DOI unknown to the batch has no arXiv id to ask again
    expect(seen.map((r) => r.path.split('/')[1])).toEqual(['s2', 's2', 'oa', 'cr']);
  });

  it('a failing link sink never fails the lookup', async () => {
    const source = new CrossrefSource(`${peer.url}/cr`, {
      ...opts,
      onLinks: () => Promise.reject(new Error('database down')),
    });
    expect(await source.citations({ doi: DOI.toLowerCase(), arxivId: null })).toBe(7);
  });
});

import { describe, expect, it } from 'vitest';
import {
  containment,
  COPY_CONTAINMENT,
  crossrefLinks,
  fingerprint,
  openAlexLinks,
  references,
  semanticScholarLinks,
  versionRole,
} from './works.js';

const ABSTRACT_A = `We study the prompt production of photon pairs at hadron colliders and compute the cross
sections at next to leading order, including the resummation of soft gluon emission to all orders,
fragmentation contributions and the gluon fusion subprocess. Predictions are compared with data from
the Tevatron and extended to the energies of the Large Hadron Collider, where the background to the
search for a light Higgs boson decaying into two photons is estimated.`;
/** a different paper with a similar title and subject: shares phrases, not its text */
const ABSTRACT_B = `Photon pair production at hadron colliders is an important background to new physics. We
present a calculation of the transverse momentum distribution of the pair with a parton shower, and
discuss the isolation criteria used by the experiments at the Tevatron and at the Large Hadron
Collider, together with the uncertainty from the choice of scales and parton distribution functions.`;

describe('works rules', () => {
  it('gives a version its role from its own identifiers', () => {
    expect(versionRole({ doi: '10.1103/physrevd.76.013009', arxivId: '0704.0001' })).toBe('published');
    expect(versionRole({ doi: '10.48550/arxiv.0704.0001', arxivId: null })).toBe('preprint');
    expect(versionRole({ doi: null, arxivId: null })).toBe('copy');
  });

  it('judges copies by text containment, not shared phrases', () => {
    const a = fingerprint(ABSTRACT_A)!;
    const b = fingerprint(ABSTRACT_B)!;
    const trimmed = fingerprint(ABSTRACT_A.slice(0, Math.floor(ABSTRACT_A.length * 0.6)))!;
    expect(containment(a, trimmed)).toBeGreaterThanOrEqual(COPY_CONTAINMENT);
    expect(containment(a, b)).toBeLessThan(0.2);
    // too little text to judge
    expect(fingerprint('Photon pairs at the LHC')).toBeNull();
  });

  it('reads version links from answers and ignores relations to other works', () => {
    expect(
      crossrefLinks({
        message: {
          DOI: '10.1000/pub',
          relation: {
            'is-preprint-of': [],
            'has-preprint': [{ 'id-type': 'doi', id: '10.48550/arXiv.2401.00001' }],
            'is-comment-on': [{ 'id-type': 'doi', id: '10.1000/other' }],
            'is-supplemented-by': [{ 'id-type': 'doi', id: '10.5281/zenodo.1' }],
          },
        },
      }),
    ).toEqual([{ from: 'doi:10.1000/pub', to: 'arxiv:2401.00001', evidence: 'crossref:has-preprint' }]);
    expect(semanticScholarLinks({ externalIds: { DOI: '10.1000/pub' } })).toEqual([]);
    expect(semanticScholarLinks(null)).toEqual([]);
    expect(
      openAlexLinks({
        doi: 'https://doi.org/10.1000/pub',
        locations: [
          { landing_page_url: 'https://arxiv.org/abs/2401.00001v2' },
          { landing_page_url: 'https://example.org/x' },
        ],
      }),
    ).toEqual([{ from: 'doi:10.1000/pub', to: 'arxiv:2401.00001', evidence: 'openalex:locations' }]);
  });

  it('finds the identifiers and links a story references, bounded', () => {
    const refs = references(
      'See https://doi.org/10.1038/s41586-020-2649-2, arXiv:2106.09685v3 and doi:10.1126/science.abc1234.',
      '<a href="https://www.nature.com/articles/x?utm_source=feed">paper</a>',
    );
    expect(refs.identifiers.sort()).toEqual([
      'arxiv:2106.09685',
      'doi:10.1038/s41586-020-2649-2',
      'doi:10.1126/science.abc1234',
    ]);
    expect(refs.urls).toEqual(['https://www.nature.com/articles/x?utm_source=feed']);
    const many = Array.from({ length: 1000 }, (_, i) => `https://example.org/${i}`).join(' ');
    expect(references(many).urls).toHaveLength(200);
  });
});

import { describe, expect, it } from 'vitest';
import {
  containment,
  COPY_CONTAINMENT,
  crossrefLinks,
  fingerprint,
  openAlexLinks,
  references,
  semanticScholarLinks,
  signatureToText,
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

  it('calls a version read from a preprint server, or under a preprint DOI, the preprint', () => {
    // an arXiv API entry carries its journal version's DOI as arxiv:doi: still the preprint
    const arxiv = { doi: '10.1145/3106237.3106277', arxivId: '1709.03221' };
    expect(versionRole({ ...arxiv, url: 'http://arxiv.org/abs/1709.03221v1' })).toBe('preprint');
    expect(versionRole({ ...arxiv, url: 'https://dl.acm.org/doi/10.1145/3106237.3106277' })).toBe(
      'published',
    );
    for (const doi of [
      '10.1101/2020.03.22.002386',
      '10.1101/428896',
      '10.7287/peerj.preprints.27183v1',
      '10.21203/rs.3.rs-95413/v1',
      '10.1002/essoar.10504717.1',
      '10.2139/ssrn.3344456',
      '10.31219/osf.io/7jx4m',
      '10.5194/acp-2021-781',
    ])
      expect([doi, versionRole({ doi, arxivId: null, url: 'https://doi.org/' + doi })]).toEqual([
        doi,
        'preprint',
      ]);
    // Cold Spring Harbor's journals and an EGU journal's final paper are published versions
    for (const doi of ['10.1101/gr.277615.122', '10.1101/gad.1234', '10.5194/acp-22-1234-2022'])
      expect([doi, versionRole({ doi, arxivId: null })]).toEqual([doi, 'published']);
    expect(versionRole({ doi: null, arxivId: null, url: 'https://www.biorxiv.org/content/1' })).toBe('copy');
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

describe('fingerprint', () => {
  it('is the same signature as before: fingerprints stored earlier still compare with new ones', () => {
    const text =
      'The central bank raised its benchmark interest rate by a quarter of a percentage point on Wednesday, the third increase this year, and signalled that further tightening was likely as inflation remained well above its two per cent target. Policymakers voted seven to two in favour of the move.';
    const f = fingerprint(text)!;
    expect(f.shingles).toBe(46);
    // recorded from the first implementation (fnv1a of the joined shingle, murmur3-finalised seeds)
    expect(signatureToText(f.signature)).toBe(
      'JtBDArXvdAL++gkJlFE+AbmAwQjie+EBLrFOAUZUNwPzACoOLdufAGvdYgh6vpgAmmdxB1R25QeWG+AFhK+FA9YrTgCCdOwASqxlAMVzGghuBBEB2FWIAAEXtQ5pw2YEVWpoBuq6sgZJjYwBa+hrBEhwGACiaXQBK7+LApOAMAH2vFINWIW3AeS2TwUuJs4Ig9j2CjCDqQjHI1QGQCmEAarDeQFxcbsFyZo2AbaUtwYs9U4FZmssASCl1gCdPlAE4ZJYByFtTQu+mdUDTjDNCOKopQAYzfwGydFtBnd1PxEfi7EENPe3DQHGJQcdGxQF3CltBn5FEQoQrVcCyVU9AWsxcxGu4/QF6Ae0AKyP3AKs0VQQC2SWAXMFtwfp7OQApSOVBwDuiQVz0XYEqL+VCboC0gSWHnsBJGSyBU/xeBVEIfwAC1rJBVBNIwOL3cgAZGxjD9qY0gIlii8CIRe4A2t1EwxV68cAxwsbAVwWyAxIKI8Ae/8dBAe0fwhpQRwAFG0HBDuKMwMOKtwBbzqNBJkinAuRPVoDre3KBW0IHxCPh3kHrkXLCKxNWwgnkO0F9FaoBX0/4QmA2NMJZOjsBO8ftQXJUyYAsAFTAEaWzAJgp44B/OZCAywOZgEv5ZEDYhKRCqwM1gFx+a0JNg0GAu9DugRZrmMGUC6NARXtjAE=',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { parseFeed } from '../../src/infrastructure/feeds/feed-parser.js';
import { dedupCandidates, emptyKnownKeys } from '../../src/application/pipeline/dedup.js';
import { canonicalizeUrl, extractArxivId, normalizeTitle } from '../../src/domain/identifiers.js';
import { extractDoi } from '../../src/domain/doi.js';

/** two articles of the same Wiley issue: their SICI DOIs differ only after the `<` */
const AR8 = '10.1002/(SICI)1097-0185(19990415)257:2<73::AID-AR8>3.0.CO;2-B';
const AR9 = '10.1002/(SICI)1097-0185(19990415)257:2<87::AID-AR9>3.0.CO;2-T';
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const encodePath = (d: string) => d.split('/').map(encodeURIComponent).join('/');

const rss = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/"
     xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel><title>The Anatomical Record</title><link>https://anatomy.example.org/</link>
    <item>
      <title>Morphology of the first structure</title>
      <link>https://anatomy.example.org/ar8</link>
      <prism:doi>${escape(AR8)}</prism:doi>
    </item>
    <item>
      <title>Development of the second structure</title>
      <link>https://anatomy.example.org/ar9</link>
      <dc:identifier>https://doi.org/${encodePath(AR9)}</dc:identifier>
    </item>
    <item>
      <title>A third paper, linked by its DOI</title>
      <link>https://doi.org/10.1016/S0140-6736(20)30183-5</link>
    </item>
  </channel>
</rss>`;

const atom = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Journal</title><id>urn:x</id><updated>2024-01-01T00:00:00Z</updated>
  <entry>
    <title>An entry with a DOI link</title>
    <id>https://journal.example.org/e1</id>
    <link href="https://journal.example.org/e1"/>
    <link title="doi" rel="related" href="https://doi.org/${encodePath(AR9)}"/>
    <updated>2024-01-01T00:00:00Z</updated>
  </entry>
</feed>`;

describe('DOIs read from feeds (prism:doi, dc:identifier, links)', () => {
  it('reads SICI DOIs whole from prism:doi and a dc:identifier link, and a DOI from the item link', () => {
    const entries = parseFeed(rss, 'https://anatomy.example.org/feed');
    expect(entries.map((e) => e.doi)).toEqual([
      AR8.toLowerCase(),
      AR9.toLowerCase(),
      '10.1016/s0140-6736(20)30183-5',
    ]);
    expect(parseFeed(atom, 'https://journal.example.org/feed')[0]!.doi).toBe(AR9.toLowerCase());
  });

  it('keeps two articles whose SICI DOIs share everything up to "<" (no longer one duplicate)', () => {
    const entries = parseFeed(rss, 'https://anatomy.example.org/feed');
    const candidates = entries.map((e) => ({
      url: e.url,
      canonicalUrl: canonicalizeUrl(e.url),
      doi: e.doi,
      arxivId: e.arxivId ?? extractArxivId(e.url),
      normalizedTitle: normalizeTitle(e.title),
      publishedAt: null,
      topicId: 'topic',
      sourceId: null,
    }));
    const known = emptyKnownKeys();
    const { fresh, skipped } = dedupCandidates(candidates, known);
    expect(skipped).toEqual([]);
    expect(fresh).toHaveLength(3);
    // the same DOI written in another case and as a link is still the same article
    const again = dedupCandidates(
      [
        {
          url: 'https://mirror.example.net/x',
          canonicalUrl: 'https://mirror.example.net/x',
          doi: extractDoi(`https://doi.org/${encodePath(AR8.toUpperCase())}`),
          arxivId: null,
          normalizedTitle: 'mirror copy of the first structure',
          publishedAt: null,
          topicId: 'topic',
          sourceId: null,
        },
      ],
      known,
    );
    expect(again.skipped).toMatchObject([{ reason: 'doi', duplicateOf: 'https://anatomy.example.org/ar8' }]);
  });
});

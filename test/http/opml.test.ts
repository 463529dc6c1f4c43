import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseOpml } from 'feedsmith';
import { asc, eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { sources, topics } from '../../src/infrastructure/db/schema/index.js';
import { OpmlService } from '../../src/application/catalog/opml.service.js';
import type { CatalogTransactions } from '../../src/application/catalog/opml.ports.js';
import { systemClock } from '../../src/application/shared/ports.js';
import { DrizzleCatalogTransactions } from '../../src/infrastructure/db/repositories/catalog-transactions.js';
import { FeedsmithOpmlCodec } from '../../src/infrastructure/feeds/opml-codec.js';
import { OutboundGuard } from '../../src/infrastructure/http/outbound-guard.js';
import { GuardOutboundPolicy } from '../../src/infrastructure/http/outbound-policy.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'opml');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

interface Feed {
  folder: string;
  title: string;
  url: string;
}
type Outline = { text?: unknown; title?: unknown; xmlUrl?: unknown; outlines?: Outline[] };

/** Every feed of an OPML text as (folder, title, URL), read with feedsmith's parser directly. */
function feedsOf(xml: string): Feed[] {
  const out: Feed[] = [];
  const walk = (list: Outline[] | undefined, folder: string) => {
    for (const o of list ?? []) {
      if (typeof o.xmlUrl === 'string') out.push({ folder, title: String(o.title ?? o.text), url: o.xmlUrl });
      else walk(o.outlines, String(o.text ?? o.title));
    }
  };
  walk(parseOpml(xml).body?.outlines as Outline[] | undefined, '');
  return out.sort((a, b) => a.url.localeCompare(b.url));
}
const foldersOf = (xml: string) =>
  ((parseOpml(xml).body?.outlines ?? []) as Outline[]).map((o) => String(o.text)).sort();

describe.each(dbKinds())('OPML import and export (%s)', (kind) => {
  let t: TestApp;
  let admin: { authorization: string };
  const db = () => t.container.database.db;

  const upload = (body: Buffer | string, query = '', type = 'text/x-opml') =>
    t.app.inject({
      method: 'POST',
      url: `/admin/sources/opml${query}`,
      headers: { ...admin, 'content-type': type },
      payload: body,
    });
  const exportXml = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/sources.opml', headers: admin });
    expect(res.statusCode).toBe(200);
    return res.body;
  };
  /** every source with its topic's name, by URL */
  const catalog = () =>
    db()
      .select({
        topic: topics.name,
        name: sources.name,
        url: sources.url,
        kind: sources.kind,
        enabled: sources.enabled,
      })
      .from(sources)
      .innerJoin(topics, eq(topics.id, sources.topicId))
      .orderBy(asc(sources.url));

  beforeAll(async () => {
    t = await buildTestApp({ db: kind });
    admin = (await t.login('admin')).headers;
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await db().delete(topics); // sources go with their topic
  });

  it('exports an empty catalog as a dated OPML 2.0 download, for admins only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/sources.opml', headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/x-opml; charset=utf-8');
    const day = new Date().toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="article-intel-sources-${day}.opml"`,
    );
    const doc = parseOpml(res.body);
    expect(doc.head?.title).toBe('Article Intelligence Service sources');
    expect(Date.parse(String(doc.head?.dateCreated))).toBeGreaterThan(Date.now() - 60_000);
    expect(res.body).toContain('<opml version="2.0">');

    expect((await t.app.inject({ method: 'GET', url: '/admin/sources.opml' })).statusCode).toBe(401);
    const user = (await t.login('user')).headers;
    expect(
      (await t.app.inject({ method: 'GET', url: '/admin/sources.opml', headers: user })).statusCode,
    ).toBe(403);
    const post = await t.app.inject({
      method: 'POST',
      url: '/admin/sources/opml',
      headers: { ...user, 'content-type': 'text/x-opml' },
      payload: fixture('two-topics-12-feeds.opml'),
    });
    expect(post.statusCode).toBe(403);
    expect(await catalog()).toEqual([]);
  });

  it('previews a file of 2 topics and 12 feeds without writing, then imports it in one go', async () => {
    const file = fixture('two-topics-12-feeds.opml');
    const preview = await upload(file, '?dry_run=true');
    expect(preview.statusCode).toBe(200);
    const plan = preview.json();
    expect(plan).toMatchObject({
      dry_run: true,
      title: 'Two topics, twelve feeds',
      default_topic: 'Imported',
      topics: [
        { name: 'Climate Research', action: 'create', sources: 6 },
        { name: 'Quantum Computing', action: 'create', sources: 6 },
      ],
      duplicates: [],
      invalid: [],
      created: { topics: 0, sources: 0 },
    });
    expect(plan.sources).toHaveLength(12);
    expect(plan.sources[3]).toEqual({
      topic: 'Climate Research',
      name: 'Atmospheric Chemistry Letters',
      url: 'https://climate.example.test/acl/rss?format=rss2&issue=current',
      kind: 'rss',
      enabled: true,
    });
    expect(await catalog()).toEqual([]);
    expect(await db().select().from(topics)).toEqual([]);

    const applied = await upload(file);
    expect(applied.statusCode).toBe(200);
    expect(applied.json()).toMatchObject({ dry_run: false, created: { topics: 2, sources: 12 } });
    expect({ ...applied.json(), dry_run: true, created: { topics: 0, sources: 0 } }).toEqual(plan);
    const rows = await catalog();
    expect(rows).toHaveLength(12);
    expect(rows.filter((r) => r.topic === 'Quantum Computing').map((r) => r.name)).toContain('量子計算期刊');
    // the regular list endpoint sees them too
    const listed = await t.app.inject({ method: 'GET', url: '/admin/sources', headers: admin });
    expect(listed.json()).toHaveLength(12);

    // the export holds the same folders and feeds as the file
    const xml = await exportXml();
    expect(feedsOf(xml)).toEqual(feedsOf(file.toString('utf8')));
    expect(foldersOf(xml)).toEqual(['Climate Research', 'Quantum Computing']);
  });

  it('reports duplicates (already in the catalog, repeated in the file) and adds only the new feeds', async () => {
    await upload(fixture('two-topics-12-feeds.opml'));
    const again = await upload(fixture('two-topics-12-feeds.opml'));
    expect(again.json()).toMatchObject({ topics: [], sources: [], created: { topics: 0, sources: 0 } });
    expect(again.json().duplicates).toHaveLength(12);
    expect(again.json().duplicates[0]).toEqual({
      topic: 'Climate Research',
      name: 'Carbon Brief',
      url: 'https://climate.example.test/carbon-brief/feed.xml',
      reason: 'in_catalog',
      existing_topic: 'Climate Research',
    });

    const mixed = `<?xml version="1.0"?>
<opml version="2.0"><head><title>mixed</title></head><body>
  <outline text="climate research">
    <outline text="New one" xmlUrl="https://new.example.test/feed.xml"/>
    <outline text="Same host, other case" xmlUrl="https://NEW.example.test:443/feed.xml"/>
  </outline>
  <outline text="Elsewhere">
    <outline text="Carbon Brief again" type="rss" xmlUrl="https://climate.example.test/carbon-brief/feed.xml"/>
  </outline>
</body></opml>`;
    const res = await upload(mixed);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // the folder matches the existing topic whatever its case: no second topic; a feed the catalog
    // holds in one topic joins the other folder's topic too
    expect(body.topics).toEqual([
      { name: 'Climate Research', action: 'existing', sources: 1 },
      { name: 'Elsewhere', action: 'create', sources: 1 },
    ]);
    expect(body.sources.map((s: { url: string }) => s.url)).toEqual([
      'https://new.example.test/feed.xml',
      'https://climate.example.test/carbon-brief/feed.xml',
    ]);
    expect(body.duplicates).toEqual([
      {
        topic: 'climate research',
        name: 'Same host, other case',
        url: 'https://NEW.example.test:443/feed.xml',
        reason: 'in_file',
        existing_topic: 'Climate Research',
      },
    ]);
    expect(body.created).toEqual({ topics: 1, sources: 2 });
    expect(await catalog()).toHaveLength(14);
    expect((await db().select().from(topics)).map((x) => x.name).sort()).toEqual([
      'Climate Research',
      'Elsewhere',
      'Quantum Computing',
    ]);
  });

  it('adds a feed listed in several folders to every one of their topics, once each', async () => {
    const file = `<?xml version="1.0"?>
<opml version="2.0"><head><title>several folders</title></head><body>
  <outline text="Optics"><outline text="Shared feed" xmlUrl="https://shared.example.test/feed.xml"/></outline>
  <outline text="Lasers">
    <outline text="Shared feed" xmlUrl="https://shared.example.test/feed.xml"/>
    <outline text="Shared feed twice" xmlUrl="https://SHARED.example.test/feed.xml"/>
  </outline>
</body></opml>`;
    const first = (await upload(file)).json();
    expect(first.topics).toEqual([
      { name: 'Optics', action: 'create', sources: 1 },
      { name: 'Lasers', action: 'create', sources: 1 },
    ]);
    expect(first.duplicates).toMatchObject([
      { topic: 'Lasers', reason: 'in_file', existing_topic: 'Lasers' },
    ]);
    const shared = (await catalog()).filter((s) => s.url === 'https://shared.example.test/feed.xml');
    expect(shared.map((s) => s.topic).sort()).toEqual(['Lasers', 'Optics']);
    // again: each topic holds it already
    const again = (await upload(file)).json();
    expect(again.created).toEqual({ topics: 0, sources: 0 });
    expect(again.duplicates.map((d: { existing_topic: string }) => d.existing_topic)).toEqual([
      'Optics',
      'Lasers',
      'Lasers',
    ]);
  });

  it.each<[string, string[]]>([
    ['miniflux-export.opml', ['Engineering', 'Science', '科技新聞']],
    ['freshrss-export.opml', ['Research & Papers', 'Uncategorized', 'Youtube']],
  ])(
    'round trip of %s: every feed URL, title and category survives import and export',
    async (name, folders) => {
      const file = fixture(name).toString('utf8');
      const res = await upload(file);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ duplicates: [], invalid: [] });
      const xml = await exportXml();
      expect(feedsOf(xml)).toEqual(feedsOf(file));
      expect(foldersOf(xml)).toEqual(folders);
      expect(feedsOf(xml).length).toBe(res.json().created.sources);

      // and the export imported into an empty catalog gives the same catalog back
      const before = await catalog();
      await db().delete(topics);
      expect((await upload(xml)).json().created.sources).toBe(before.length);
      expect(await catalog()).toEqual(before);
    },
  );

  it('keeps Miniflux’s disabled flag, and our own kind and enabled, across a round trip', async () => {
    await upload(fixture('miniflux-export.opml'));
    expect((await catalog()).find((r) => r.name === 'Old Mailing List')).toMatchObject({ enabled: false });

    await db().delete(topics);
    const topic = (
      await t.app.inject({
        method: 'POST',
        url: '/admin/topics',
        headers: admin,
        payload: { name: 'Physics' },
      })
    ).json();
    await t.app.inject({
      method: 'POST',
      url: '/admin/topics',
      headers: admin,
      payload: { name: 'Empty topic' },
    });
    for (const payload of [
      {
        name: 'arXiv hep-th',
        kind: 'arxiv',
        url: 'http://export.arxiv.org/api/query?search_query=cat:hep-th',
      },
      { name: 'Paused <feed> & co', kind: 'rss', url: 'https://paused.example.test/rss', enabled: false },
      { name: 'Plain', kind: 'rss', url: 'https://plain.example.test/rss' },
    ])
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/admin/sources',
            headers: admin,
            // hosts that do not exist: saved without the feed check ("Save anyway")
            payload: { topic_id: topic.id, ...payload, force: true },
          })
        ).statusCode,
      ).toBe(201);
    const before = await catalog();
    const xml = await exportXml();
    expect(xml).toContain('xmlns:ais="urn:article-intel:opml" ais:kind="arxiv"');
    expect(xml).toContain('ais:enabled="false"');
    expect(xml).toContain('text="Paused &lt;feed&gt; &amp; co"');
    expect(foldersOf(xml)).toEqual(['Empty topic', 'Physics']);

    await db().delete(topics);
    const res = await upload(xml);
    expect(res.json().topics).toEqual([
      { name: 'Empty topic', action: 'create', sources: 0 },
      { name: 'Physics', action: 'create', sources: 3 },
    ]);
    expect(await catalog()).toEqual(before);
    expect((await db().select().from(topics)).map((x) => x.name).sort()).toEqual(['Empty topic', 'Physics']);
  });

  it('puts top-level feeds in "Imported" (or the named topic), flattens nested folders and reports bad outlines', async () => {
    const file = `<?xml version="1.0" encoding="UTF-8"?>
<opml version="1.0"><head><title>odd</title></head><body>
  <outline text="Loose feed" type="rss" xmlUrl="https://loose.example.test/rss"/>
  <outline text="Science">
    <outline text="Physics">
      <outline title="Deep feed" text="ignored" xmlUrl="https://deep.example.test/rss"/>
    </outline>
    <outline text="FTP" type="rss" xmlUrl="ftp://files.example.test/feed"/>
    <outline text="Script" type="rss" xmlUrl="javascript:alert(1)"/>
    <outline text="Broken" type="rss" xmlUrl="http://"/>
    <outline text="No URL" type="rss"/>
    <outline text="Scraped page" type="HTML+XPath" xmlUrl="https://page.example.test/"/>
    <outline text="Control" type="rss" xmlUrl="https://ctl.example.test/&#1;rss"/>
    <outline text="" category="/misc"/>
  </outline>
  <outline text="!!!">
    <outline text="Under a nameless folder" xmlUrl="https://nameless.example.test/rss"/>
  </outline>
  <outline xmlUrl="https://untitled.example.test/feed.xml"/>
</body></opml>`;
    const res = await upload(file, '?dry_run=true');
    expect(res.statusCode).toBe(200);
    const plan = res.json();
    expect(plan.topics).toEqual([
      { name: 'Imported', action: 'create', sources: 3 },
      { name: 'Science / Physics', action: 'create', sources: 1 },
    ]);
    expect(plan.sources.map((s: { topic: string; name: string }) => [s.topic, s.name])).toEqual([
      ['Imported', 'Loose feed'],
      ['Science / Physics', 'Deep feed'],
      ['Imported', 'Under a nameless folder'],
      ['Imported', 'untitled.example.test'],
    ]);
    expect(plan.invalid).toEqual([
      { folder: 'Science', text: 'FTP', url: 'ftp://files.example.test/feed', reason: 'not_http' },
      { folder: 'Science', text: 'Script', url: 'javascript:alert(1)', reason: 'not_http' },
      { folder: 'Science', text: 'Broken', url: 'http://', reason: 'bad_url' },
      { folder: 'Science', text: 'No URL', url: null, reason: 'missing_url' },
      {
        folder: 'Science',
        text: 'Scraped page',
        url: 'https://page.example.test/',
        reason: 'unsupported_type',
      },
      {
        folder: 'Science',
        text: 'Control',
        url: 'https://ctl.example.test/rss',
        reason: 'control_characters',
      },
      { folder: 'Science', text: '', url: null, reason: 'empty_outline' },
      { folder: null, text: '!!!', url: null, reason: 'folder_name' },
    ]);

    const named = await upload(file, `?default_topic=${encodeURIComponent('匯入的來源')}`);
    expect(named.json().created).toEqual({ topics: 2, sources: 4 });
    expect((await db().select().from(topics).orderBy(asc(topics.name))).map((x) => x.name)).toEqual([
      'Science / Physics',
      '匯入的來源',
    ]);
    expect((await upload(file, '?default_topic=%20!!%20')).json().error.code).toBe('invalid_name');
  });

  it('a write that lands between the plan and the insert: 409 catalog_changed and nothing written', async () => {
    const real = new DrizzleCatalogTransactions(db());
    // the real transaction; right after the plan's read, "another admin" adds the file's 2nd topic
    // (the first transaction is the read the feeds' hosts are judged from, before the writing one)
    let calls = 0;
    const racing: CatalogTransactions = {
      transaction: (fn) =>
        ++calls === 1
          ? real.transaction(fn)
          : real.transaction((repos) =>
              fn({
                sources: repos.sources,
                insertSources: (inputs) => repos.insertSources(inputs),
                topics: {
                  get: (id) => repos.topics.get(id),
                  update: (id, patch) => repos.topics.update(id, patch),
                  delete: (id) => repos.topics.delete(id),
                  create: (input) => repos.topics.create(input),
                  list: async (opts) => {
                    const seen = await repos.topics.list(opts);
                    await repos.topics.create({
                      name: 'Quantum Computing',
                      slug: 'quantum-computing',
                      description: null,
                      isActive: true,
                    });
                    return seen;
                  },
                },
              }),
            ),
    };
    const service = new OpmlService(
      new FeedsmithOpmlCodec(),
      racing,
      systemClock,
      new GuardOutboundPolicy(new OutboundGuard()),
    );
    const err = await service
      .importOpml(fixture('two-topics-12-feeds.opml'), { dryRun: false })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'Conflict', code: 'catalog_changed' });
    // the first topic, created before the conflict, went with the rest
    expect(await db().select().from(topics)).toEqual([]);
    expect(await catalog()).toEqual([]);
  });

  it('reads the charset the file declares', async () => {
    const latin1 = Buffer.from(
      `<?xml version="1.0" encoding="ISO-8859-1"?>\n<opml version="2.0"><head><title>Caf\u00e9</title></head><body><outline text="R\u00e9sum\u00e9s"><outline text="Cr\u00e8me br\u00fbl\u00e9e" xmlUrl="https://latin.example.test/rss"/></outline></body></opml>`,
      'latin1',
    );
    const res = await upload(latin1, '?dry_run=true', 'application/xml');
    expect(res.json()).toMatchObject({
      title: 'Café',
      sources: [{ topic: 'Résumés', name: 'Crème brûlée' }],
    });
  });

  describe('hostile files: a clear 4xx and nothing written', () => {
    const refused = async (body: Buffer | string, status: number, code: string, type?: string) => {
      const res = await upload(body, '', type);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
      expect(res.json().error.code).toBe(code);
      expect(await db().select().from(topics)).toEqual([]);
      return res.json().error.message as string;
    };
    const feed = '<outline text="F" type="rss" xmlUrl="https://f.example.test/rss"/>';
    const opml = (body: string, prolog = '') =>
      `<?xml version="1.0"?>\n${prolog}<opml version="2.0"><head><title>t</title></head><body>${body}</body></opml>`;

    it('an entity bomb or an external entity is refused before any expansion', async () => {
      const laughs = [
        '<!DOCTYPE opml [',
        '<!ENTITY lol "lol">',
        ...Array.from(
          { length: 9 },
          (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
        ),
        ']>',
      ].join('\n');
      const started = performance.now();
      await refused(
        opml(`<outline text="&lol9;" xmlUrl="https://x.example.test/rss"/>`, laughs),
        422,
        'opml_entities_refused',
      );
      expect(performance.now() - started).toBeLessThan(1000);
      await refused(
        opml(
          '<outline text="&xxe;" xmlUrl="https://x.example.test/rss"/>',
          '<!DOCTYPE opml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
        ),
        422,
        'opml_entities_refused',
      );
      // a DOCTYPE without entities is harmless and read
      const plain = await upload(opml(feed, '<!DOCTYPE opml>'), '?dry_run=true');
      expect(plain.json().sources).toHaveLength(1);
    });

    it('control characters, malformed XML, another format, no body, the wrong media type', async () => {
      expect(await refused(opml(`<outline text="a\u0001b"/>`), 422, 'opml_control_characters')).toContain(
        'U+0001 on line 2',
      );
      expect(await refused(opml(feed).slice(0, -20), 422, 'opml_malformed')).toMatch(/not well-formed XML/);
      await refused('<?xml version="1.0"?><rss version="2.0"><channel/></rss>', 422, 'opml_invalid');
      await refused('just some text', 422, 'opml_invalid');
      await refused('', 422, 'opml_empty');
      await refused(JSON.stringify({ opml: 1 }), 415, 'unsupported_media_type', 'application/json');
      await refused(opml(feed), 415, 'unsupported_media_type', 'multipart/form-data; boundary=x');
    });

    it('a file over 1 MiB is 413; more than 5,000 outlines or absurd nesting is 422', async () => {
      const big = opml(`<outline text="${'x'.repeat(1024 * 1024)}"/>`);
      await refused(big, 413, 'payload_too_large');
      expect(
        await refused(opml('<outline text="x"/>'.repeat(5001)), 422, 'opml_too_many_outlines'),
      ).toContain('5000');
      const depth = 30_000;
      const deep = opml(`${'<outline text="a">'.repeat(depth)}${feed}${'</outline>'.repeat(depth)}`);
      const started = performance.now();
      await refused(deep, 422, 'opml_too_many_outlines');
      expect(performance.now() - started).toBeLessThan(5000);
      const tooDeep = 200;
      await refused(
        opml(`${'<outline text="a">'.repeat(tooDeep)}${feed}${'</outline>'.repeat(tooDeep)}`),
        422,
        'opml_too_deep',
      );
      // nesting within the parser's bound is read (the folder path becomes a capped topic name)
      const nested = 90;
      const within = await upload(
        opml(`${'<outline text="a">'.repeat(nested)}${feed}${'</outline>'.repeat(nested)}`),
        '?dry_run=true',
      );
      expect(within.statusCode, within.body.slice(0, 200)).toBe(200);
      const topic: string = within.json().sources[0].topic;
      expect(topic.length).toBeLessThanOrEqual(120);
      expect(topic).toMatch(/^a \/ a \/ .* a$/);
      // and the service still answers
      expect((await upload(opml(feed), '?dry_run=true')).statusCode).toBe(200);
    });

    it('a query with a control character is a 422 validation error', async () => {
      const res = await upload(opml(feed), `?default_topic=${encodeURIComponent('a\u0007b')}`);
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('validation_error');
    });
  });
});

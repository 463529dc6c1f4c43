import { conflict, invalid } from '../../domain/errors.js';
import type { Source, Topic } from '../../domain/catalog.js';
import { oneLine, slugify } from '../../domain/text.js';
import type { Clock } from '../shared/ports.js';
import { NAME_MAX, planImport, type ImportPlan, type InvalidReason } from './opml-plan.js';
import { allowedHost, judgeHosts, withoutRefused, type RefusedFeed } from './opml-refusals.js';
import type { CatalogRepositories, CatalogTransactions, OpmlCodec, OutboundPolicy } from './opml.ports.js';

/** where feeds outside any folder go unless the request names another topic */
export const DEFAULT_IMPORT_TOPIC = 'Imported';
export const EXPORT_TITLE = 'Article Intelligence Service sources';

export interface OpmlImportResult {
  dry_run: boolean;
  title: string | null;
  default_topic: string;
  topics: { name: string; action: 'create' | 'existing'; sources: number }[];
  sources: { topic: string; name: string; url: string; kind: Source['kind']; enabled: boolean }[];
  duplicates: {
    topic: string;
    name: string;
    url: string;
    reason: 'in_catalog' | 'in_file';
    existing_topic: string;
  }[];
  invalid: { folder: string | null; text: string; url: string | null; reason: InvalidReason }[];
  /** feeds whose host the outbound rules refuse (loopback, private, metadata) and the admin did not allow */
  refused: RefusedFeed[];
  /** what was written (zeros for a dry run) */
  created: { topics: number; sources: number };
}

const isUniqueViolation = (e: unknown) => {
  for (let err = e as { code?: string; cause?: unknown } | undefined, i = 0; err && i < 4; i++) {
    if (err.code === '23505') return true;
    err = err.cause as typeof err;
  }
  return false;
};

const answer = (
  plan: ImportPlan,
  refused: RefusedFeed[],
  dryRun: boolean,
  created: OpmlImportResult['created'],
) => ({
  dry_run: dryRun,
  title: plan.title,
  default_topic: plan.defaultTopic,
  topics: plan.topics.map((t) => ({ name: t.name, action: t.action, sources: t.sources })),
  sources: plan.sources.map((s) => ({
    topic: s.topic,
    name: s.name,
    url: s.url,
    kind: s.kind,
    enabled: s.enabled,
  })),
  duplicates: plan.duplicates.map((d) => ({
    topic: d.topic,
    name: d.name,
    url: d.url,
    reason: d.reason,
    existing_topic: d.existingTopic,
  })),
  invalid: plan.invalid,
  refused,
  created,
});

async function snapshot(repos: CatalogRepositories): Promise<{ topics: Topic[]; sources: Source[] }> {
  return { topics: await repos.topics.list(), sources: await repos.sources.list() };
}

/** OPML 2.0 export of the whole catalog and import with a preview (issue 18, deliverable 2). */
export class OpmlService {
  constructor(
    private readonly codec: OpmlCodec,
    private readonly catalog: CatalogTransactions,
    private readonly clock: Clock,
    private readonly outbound: OutboundPolicy,
  ) {}

  /** Every topic as a folder (inactive ones too) with its sources, and the download's file name. */
  async exportOpml(): Promise<{ filename: string; xml: string }> {
    const now = this.clock.now();
    const { topics, sources } = await this.catalog.transaction(snapshot);
    const byTopic = new Map<string, Source[]>();
    for (const s of sources) {
      const list = byTopic.get(s.topicId);
      if (list) list.push(s);
      else byTopic.set(s.topicId, [s]);
    }
    const xml = await this.codec.generate({
      title: EXPORT_TITLE,
      dateCreated: now,
      folders: topics.map((t) => ({
        name: t.name,
        feeds: (byTopic.get(t.id) ?? []).map((s) => ({
          name: s.name,
          url: s.url,
          kind: s.kind,
          enabled: s.enabled,
        })),
      })),
    });
    return { filename: `article-intel-sources-${now.toISOString().slice(0, 10)}.opml`, xml };
  }

  /**
   * The plan of importing `bytes` (an OPML document). A dry run answers it and writes nothing;
   * otherwise the plan is made again inside one transaction and written there, all or nothing.
   */
  async importOpml(
    bytes: Uint8Array | undefined,
    opts: { dryRun: boolean; contentType?: string; defaultTopic?: string; allowHosts?: string[] },
  ): Promise<OpmlImportResult> {
    const defaultTopic = oneLine(opts.defaultTopic ?? DEFAULT_IMPORT_TOPIC).slice(0, NAME_MAX);
    if (!slugify(defaultTopic))
      throw invalid('default_topic must contain letters or digits', 'invalid_name', [
        { path: '/default_topic', message: 'no letters or digits' },
      ]);
    if (!bytes || bytes.length === 0) throw invalid('the request carries no OPML document', 'opml_empty');
    const doc = await this.codec.parse(bytes, opts.contentType);
    // the hosts are judged before the transaction: DNS answers are not waited for while it is open
    const preview = planImport(doc, await this.catalog.transaction(snapshot), defaultTopic);
    const allowed = new Set((opts.allowHosts ?? []).map(allowedHost).filter(Boolean));
    const refusedHosts = await judgeHosts(preview, this.outbound, allowed);
    if (opts.dryRun) {
      const { plan, refused } = withoutRefused(preview, refusedHosts);
      return answer(plan, refused, true, { topics: 0, sources: 0 });
    }
    try {
      return await this.catalog.transaction(async (repos) => {
        const { plan, refused } = withoutRefused(
          planImport(doc, await snapshot(repos), defaultTopic),
          refusedHosts,
        );
        const ids = new Map<string, string>();
        let topicsCreated = 0;
        for (const t of plan.topics) {
          if (t.id) {
            ids.set(t.slug, t.id);
            continue;
          }
          const created = await repos.topics.create({
            name: t.name,
            slug: t.slug,
            description: null,
            isActive: true,
          });
          ids.set(t.slug, created.id);
          topicsCreated++;
        }
        const sourcesCreated = await repos.insertSources(
          plan.sources.map((s) => ({
            topicId: ids.get(s.topicSlug)!,
            name: s.name,
            kind: s.kind,
            url: s.url,
            enabled: s.enabled,
          })),
        );
        return answer(plan, refused, false, { topics: topicsCreated, sources: sourcesCreated });
      });
    } catch (e) {
      // another write added the same topic or feed between our read and our insert
      if (isUniqueViolation(e))
        throw conflict('the catalog changed during the import; preview the file again', 'catalog_changed');
      throw e;
    }
  }
}

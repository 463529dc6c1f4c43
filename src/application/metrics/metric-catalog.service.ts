import { invalid, notFound } from '../../domain/errors.js';
import { METRIC_ICONS, isMetricIcon, type MetricDefinition } from '../../domain/metrics.js';
import type { MetricDefinitionRepository } from './metrics.ports.js';

export interface MetricDefinitionOut {
  metric_key: string;
  label_i18n_key: string;
  icon_name: string | null;
  format_hint: string;
  unit: string;
}

/** GET /articles/metric-coverage: what sorting by a metric can order */
export interface MetricCoverageOut {
  metric_key: string;
  topic_id: string | null;
  articles: number;
  with_value: number;
  /** with_value / articles (0 when there are no articles) */
  share: number;
  pending_lookups: number;
}

export interface AdminMetricDefinitionOut extends MetricDefinitionOut {
  id: string;
  enabled: boolean;
}

const publicOut = (d: MetricDefinition): MetricDefinitionOut => ({
  metric_key: d.metricKey,
  label_i18n_key: d.labelI18nKey,
  icon_name: d.iconName,
  format_hint: d.formatHint,
  unit: d.unit,
});
const adminOut = (d: MetricDefinition): AdminMetricDefinitionOut => ({
  id: d.id,
  ...publicOut(d),
  enabled: d.enabled,
});

/** The metric catalog: which article metrics are shown and sortable (extraction sources stay internal). */
export class MetricCatalogService {
  /** `onChange`: after a definition was enabled, disabled or edited (what sorts read is cached) */
  constructor(
    private readonly definitions: MetricDefinitionRepository,
    private readonly onChange: () => void = () => undefined,
  ) {}

  async listPublic(): Promise<MetricDefinitionOut[]> {
    return (await this.definitions.list({ enabledOnly: true })).map(publicOut);
  }

  async listAdmin(): Promise<AdminMetricDefinitionOut[]> {
    return (await this.definitions.list()).map(adminOut);
  }

  /**
   * The share of articles that have a value of an enabled metric: a list sorted by it tells the
   * reader when few or none have one yet, instead of silently showing the usual order.
   */
  async coverage(q: { metricKey: string; topicId?: string }): Promise<MetricCoverageOut> {
    const enabled = await this.definitions.list({ enabledOnly: true });
    if (!enabled.some((d) => d.metricKey === q.metricKey))
      throw invalid(`unknown or disabled metric: ${q.metricKey}`, 'validation_error', [
        { path: '/metric_key', message: `one of ${enabled.map((d) => d.metricKey).join(', ')}` },
      ]);
    const c = await this.definitions.coverage(q.metricKey, q.topicId ?? null);
    return {
      metric_key: q.metricKey,
      topic_id: q.topicId ?? null,
      articles: c.articles,
      with_value: c.withValue,
      share: c.articles ? c.withValue / c.articles : 0,
      pending_lookups: c.pending,
    };
  }

  icons(): { icons: string[] } {
    return { icons: [...METRIC_ICONS] };
  }

  /** Only `enabled` and `icon_name` are ever applied; a field not sent stays as it is. */
  async update(
    id: string,
    patch: { enabled?: boolean; icon_name?: string | null },
  ): Promise<AdminMetricDefinitionOut> {
    if (patch.icon_name !== undefined && patch.icon_name !== null && !isMetricIcon(patch.icon_name))
      throw invalid(`icon "${patch.icon_name}" is not in the icon whitelist`, 'icon_not_allowed', [
        { path: '/icon_name', message: `one of ${METRIC_ICONS.join(', ')}` },
      ]);
    const updated = await this.definitions.update(id, {
      ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      ...(patch.icon_name !== undefined ? { iconName: patch.icon_name } : {}),
    });
    if (!updated) throw notFound('metric definition');
    this.onChange();
    return adminOut(updated);
  }
}

import { useI18n } from '../../../lib/i18n';
import { formatDate, formatNumber } from '../../../lib/format';
import { MetricIcon } from '../../../lib/metric-icon';
import type { ArticleDetail } from '../../../lib/api-types';
import type { MetricDefinition } from '../api/metric-definitions';

/** Each catalog metric of the article with its value, the source it came from and when it was fetched. */
export function MetricDetails({
  details,
  definitions,
}: {
  details: ArticleDetail['metric_details'];
  definitions: MetricDefinition[];
}) {
  const { t, tx, locale } = useI18n();
  if (details.length === 0) return null;
  const byKey = new Map(definitions.map((d) => [d.metric_key, d]));
  return (
    <section aria-labelledby="metrics-title">
      <h2 id="metrics-title">{t('articles.metrics')}</h2>
      <dl className="metric-details">
        {details.map((m) => {
          const def = byKey.get(m.key);
          return (
            <div key={m.key} data-metric={m.key}>
              <dt>
                <MetricIcon name={def?.icon_name ?? null} />{' '}
                {tx(def?.label_i18n_key ?? `metrics.${m.key}`, m.key.replace(/_/g, ' '))}
              </dt>
              <dd>
                <strong data-testid="metric-value">{formatNumber(m.value, locale, def?.format_hint)}</strong>
                {m.source && <span> · {t('articles.metricSource', { source: m.source })}</span>}
                {m.fetched_at && (
                  <span> · {t('articles.metricFetched', { date: formatDate(m.fetched_at, locale) })}</span>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}

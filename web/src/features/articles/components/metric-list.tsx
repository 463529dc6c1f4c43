import { useI18n } from '../../../lib/i18n';
import { formatNumber } from '../../../lib/format';
import { MetricIcon } from '../../../lib/metric-icon';
import type { MetricDefinition } from '../api/metric-definitions';

/** The enabled catalog metrics an article has a value for, each with its icon and label. */
export function MetricList({
  metrics,
  definitions,
}: {
  metrics: Record<string, number>;
  definitions: MetricDefinition[];
}) {
  const { t, tx, locale } = useI18n();
  // the API sends enabled metrics only; one the catalog has not told us about yet gets the default icon
  const known = new Set(definitions.map((d) => d.metric_key));
  const extra = Object.keys(metrics)
    .filter((k) => !known.has(k))
    .map((k) => ({
      metric_key: k,
      label_i18n_key: `metrics.${k}`,
      icon_name: null,
      format_hint: 'integer',
      unit: '',
    }));
  const shown = [...definitions, ...extra].filter((d) => typeof metrics[d.metric_key] === 'number');
  if (shown.length === 0) return null;
  return (
    <ul className="metrics" aria-label={t('articles.metrics')}>
      {shown.map((d) => {
        const label = tx(d.label_i18n_key, d.metric_key.replace(/_/g, ' '));
        const value = formatNumber(metrics[d.metric_key]!, locale, d.format_hint);
        return (
          <li key={d.metric_key} data-metric={d.metric_key} title={label}>
            <MetricIcon name={d.icon_name} />
            <span className="visually-hidden">{label}: </span>
            {value}
            {d.unit && d.unit !== 'count'
              ? ` ${tx(`units.${d.unit}`, d.unit, { count: metrics[d.metric_key]! })}`
              : ''}
          </li>
        );
      })}
    </ul>
  );
}

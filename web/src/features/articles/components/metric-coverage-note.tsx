import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Info } from 'lucide-react';
import { useI18n } from '../../../lib/i18n';
import type { MetricDefinition } from '../api/metric-definitions';
import { useMetricCoverage } from '../api/metric-coverage';
import './metric-coverage-note.css';

/**
 * Sorted by a catalog metric that few or no articles have a value of yet: says so, with the share
 * that has one and the lookups still under way, instead of silently showing the usual order. When
 * new values arrive the list is fetched again, so it reorders by itself.
 */
export function MetricCoverageNote({
  sort,
  topicId,
  definitions,
}: {
  sort: string;
  topicId: string | undefined;
  definitions: MetricDefinition[];
}) {
  const { t, tx, locale } = useI18n();
  const metric = definitions.find((d) => d.metric_key === sort);
  const coverage = useMetricCoverage(metric ? metric.metric_key : null, topicId);
  const qc = useQueryClient();
  const seen = useRef<number | null>(null);
  const withValue = coverage.data?.with_value;
  useEffect(() => {
    if (withValue === undefined) return;
    if (seen.current !== null && seen.current !== withValue)
      void qc.invalidateQueries({ queryKey: ['articles', 'list'] });
    seen.current = withValue;
  }, [withValue, qc]);

  const c = coverage.data;
  if (!metric || !c || c.articles === 0 || c.with_value === c.articles) return null;
  const label = tx(metric.label_i18n_key, metric.metric_key.replace(/_/g, ' '));
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(
    c.share,
  );
  return (
    <p
      className="coverage-note"
      role="status"
      data-testid="metric-coverage"
      data-share={c.share}
      data-pending={c.pending_lookups}
    >
      <Info size={16} aria-hidden="true" />
      <span>
        {c.with_value === 0
          ? t('articles.coverageNone', { metric: label })
          : t('articles.coverageSome', { metric: label, percent, with: c.with_value, total: c.articles })}
        {c.pending_lookups > 0 && <> {t('articles.coveragePending', { count: c.pending_lookups })}</>}
      </span>
    </p>
  );
}

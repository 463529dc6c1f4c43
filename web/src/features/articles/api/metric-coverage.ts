import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ApiResponse } from '../../../lib/api-types';

export type MetricCoverage = ApiResponse<'/articles/metric-coverage'>;

/**
 * How many articles (of the topic, or all) have a value of the metric the list is sorted by. While
 * lookups are pending it asks again every 20 s, so the note (and the list) follow the values in.
 */
export function useMetricCoverage(metricKey: string | null, topicId: string | undefined) {
  return useQuery({
    queryKey: ['metric-coverage', metricKey, topicId ?? null],
    enabled: metricKey !== null,
    queryFn: ({ signal }) =>
      api<MetricCoverage>('/articles/metric-coverage', {
        signal,
        query: { metric_key: metricKey ?? '', topic_id: topicId },
      }),
    refetchInterval: (q) => ((q.state.data?.pending_lookups ?? 0) > 0 ? 20_000 : false),
  });
}

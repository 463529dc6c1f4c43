import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MetricDefinition } from '../../../lib/api-types';

export type { MetricDefinition };

/** Enabled catalog metrics, in the catalog's order: they drive the sort menu and the cards. */
export function useMetricDefinitions() {
  return useQuery({
    queryKey: ['metric-definitions'],
    queryFn: () => api<MetricDefinition[]>('/metric-definitions'),
    staleTime: 30_000,
  });
}

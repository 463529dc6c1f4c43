import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface MetricDefinition {
  metric_key: string;
  label_i18n_key: string;
  icon_name: string | null;
  format_hint: string;
  unit: string;
}

/** Enabled catalog metrics, in the catalog's order: they drive the sort menu and the cards. */
export function useMetricDefinitions() {
  return useQuery({
    queryKey: ['metric-definitions'],
    queryFn: () => api<MetricDefinition[]>('/metric-definitions'),
    staleTime: 30_000,
  });
}

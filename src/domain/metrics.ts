/** Lucide icon names an admin may give a catalog metric (spec: a 20-name whitelist). */
export const METRIC_ICONS = [
  'quote',
  'download',
  'share-2',
  'bookmark',
  'heart',
  'message-square',
  'flame',
  'trophy',
  'hash',
  'percent',
  'clock',
  'book-open',
  'network',
  'eye',
  'star',
  'thumbs-up',
  'trending-up',
  'award',
  'users',
  'git-fork',
] as const;

export type MetricIcon = (typeof METRIC_ICONS)[number];

export const isMetricIcon = (name: string): name is MetricIcon =>
  (METRIC_ICONS as readonly string[]).includes(name);

export interface MetricDefinition {
  id: string;
  metricKey: string;
  labelI18nKey: string;
  iconName: string | null;
  formatHint: string;
  unit: string;
  enabled: boolean;
}

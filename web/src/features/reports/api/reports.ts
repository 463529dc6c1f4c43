import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Locale } from '../../../lib/i18n';
import type { WeeklyReport, WeeklyReportPage } from '../../../lib/api-types';

export type { WeeklyReport };

const loc = (locale: Locale) => (locale === 'zh-TW' ? 'zh-TW' : undefined);

/** The latest completed report of a topic (null when there is none), or the one of a given week. */
export function useReport(topicId: string | undefined, week: string | undefined, locale: Locale) {
  return useQuery(
    queryOptions({
      queryKey: ['reports', 'one', topicId, week ?? 'latest', locale],
      enabled: !!topicId,
      queryFn: ({ signal }) =>
        week
          ? api<WeeklyReport | null>('/weekly-reports/by-week', {
              signal,
              query: { topic_id: topicId, week_start: week, locale: loc(locale) },
            })
          : api<WeeklyReport | null>('/weekly-reports/latest', {
              signal,
              query: { topic_id: topicId, locale: loc(locale) },
            }),
    }),
  );
}

export function useReportArchive(topicId: string | undefined, locale: Locale) {
  return useQuery({
    queryKey: ['reports', 'archive', topicId, locale],
    enabled: !!topicId,
    queryFn: ({ signal }) =>
      api<WeeklyReportPage>('/weekly-reports', {
        signal,
        query: { topic_id: topicId, limit: 50, locale: loc(locale) },
      }),
  });
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Locale } from '../../../lib/i18n';

export interface ReportSource {
  id: string;
  title: string;
  url: string;
  public_article_id: string;
}

export interface WeeklyReport {
  id: string;
  topic_id: string;
  week_start_date: string;
  title: string;
  summary_text: string;
  cover_image_url: string | null;
  article_count: number;
  status: string;
  created_at: string;
  sources: ReportSource[];
}

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
      api<{ items: WeeklyReport[]; total: number }>('/weekly-reports', {
        signal,
        query: { topic_id: topicId, limit: 50, locale: loc(locale) },
      }),
  });
}

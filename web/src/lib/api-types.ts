/**
 * The web client's view of the api contract: request and response types read out of the generated
 * OpenAPI types (`api-types.gen.ts`, `npm run gen:api`), never copied by hand.
 */
import type { paths } from './api-types.gen';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Op<P extends keyof paths, M extends Method> = M extends keyof paths[P]
  ? NonNullable<paths[P][M]>
  : never;

/** The JSON body of the answer `S` (200 unless given) of `M P`. */
export type ApiResponse<P extends keyof paths, M extends Method = 'get', S extends number = 200> =
  Op<P, M> extends { responses: infer R }
    ? S extends keyof R
      ? R[S] extends { content: { 'application/json': infer J } }
        ? J
        : never
      : never
    : never;

/** The query parameters of `M P`. */
export type ApiQuery<P extends keyof paths, M extends Method = 'get'> =
  Op<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The JSON request body of `M P`. */
export type ApiBody<P extends keyof paths, M extends Method = 'post'> =
  Op<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/*
 * The reader contract of issue 17 (built at the same time in the api's branch): until the generated
 * file has these paths and fields, the types below carry them. Each one gives way to the generated
 * type as soon as `npm run gen:api` sees the real schema (`Omit<Pending, keyof Generated>`,
 * `P extends keyof paths`), so after the merge this block can be deleted without touching callers.
 */
type Merge<Generated, Pending> = Generated & Omit<Pending, keyof Generated>;
type PathOr<P extends string, M extends Method, Pending, S extends number = 200> = P extends keyof paths
  ? ApiResponse<P, M, S>
  : Pending;

export interface SnippetSegment {
  text: string;
  highlight: boolean;
}
export interface MetricDetail {
  key: string;
  value: number;
  source: string | null;
  fetched_at: string | null;
}

export type Article = Merge<
  ApiResponse<'/articles'>['items'][number],
  { is_read: boolean; snippet: SnippetSegment[] | null }
>;
export type ArticlePage = Omit<ApiResponse<'/articles'>, 'items'> & { items: Article[] };
export type ArticleDetail = Merge<
  ApiResponse<'/articles/{id}'>,
  { content_html: string | null; metric_details: MetricDetail[]; is_read: boolean }
>;
export type ArticleListQuery = Merge<ApiQuery<'/articles'>, { unread_only?: boolean }>;
export type MarkReadFilter = Pick<ArticleListQuery, 'topic_id' | 'tag' | 'source' | 'q' | 'favorites_only'>;
export type MarkReadResult = PathOr<'/articles/read', 'post', { marked: number }>;
export type UnreadCounts = PathOr<
  '/me/unread-counts',
  'get',
  { items: { topic_id: string; unread: number }[]; total: number }
>;
export type SimilarArticles = PathOr<'/articles/{id}/similar', 'get', { items: Article[] }>;

export type Topic = ApiResponse<'/topics'>[number];
export type User = ApiResponse<'/auth/me'>;
export type MetricDefinition = ApiResponse<'/metric-definitions'>[number];
export type WeeklyReport = NonNullable<ApiResponse<'/weekly-reports/latest'>>;
export type WeeklyReportPage = ApiResponse<'/weekly-reports'>;
export type ErrorBody = ApiResponse<'/articles', 'get', 422>;

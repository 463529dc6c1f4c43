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

export type Article = ApiResponse<'/articles'>['items'][number];
export type SnippetSegment = NonNullable<Article['snippet']>[number];
export type ArticlePage = ApiResponse<'/articles'>;
export type ArticleDetail = ApiResponse<'/articles/{id}'>;
export type MetricDetail = ArticleDetail['metric_details'][number];
export type ArticleListQuery = ApiQuery<'/articles'>;
export type MarkReadFilter = Pick<ArticleListQuery, 'topic_id' | 'tag' | 'source' | 'q' | 'favorites_only'>;
export type MarkReadResult = ApiResponse<'/articles/read', 'post'>;
export type UnreadCounts = ApiResponse<'/me/unread-counts'>;
export type SimilarArticles = ApiResponse<'/articles/{id}/similar'>;

export type Topic = ApiResponse<'/topics'>[number];
export type User = ApiResponse<'/auth/me'>;
export type MetricDefinition = ApiResponse<'/metric-definitions'>[number];
export type WeeklyReport = NonNullable<ApiResponse<'/weekly-reports/latest'>>;
export type WeeklyReportPage = ApiResponse<'/weekly-reports'>;
export type ReportSchedule = ApiResponse<'/weekly-reports/schedule'>;
export type ErrorBody = ApiResponse<'/articles', 'get', 422>;
export type Work = ApiResponse<'/works/{id}'>;
export type WorkVersion = Work['versions'][number];

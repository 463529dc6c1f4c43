import type { Provider, Topic } from '../../domain/catalog.js';
import type { ReportLocale, ReportMethod } from '../../domain/reports.js';
import type { Grounding } from '../../domain/grounding.js';

export interface ReportTranslation {
  title: string;
  summary_text: string;
}

export interface WeeklyReport {
  id: string;
  topicId: string;
  weekStartDate: string;
  title: string;
  summaryText: string;
  coverImageUrl: string | null;
  articleCount: number;
  status: string;
  method: ReportMethod;
  /** article ids in citation order; reports older than sources may hold non-UUID values */
  articleIds: string[];
  translations: Record<string, ReportTranslation>;
  /** how well its cited sentences are supported; null for reports written before grounding */
  grounding: Grounding | null;
  createdAt: Date;
}

export interface NewWeeklyReport {
  topicId: string;
  weekStartDate: string;
  title: string;
  summaryText: string;
  coverImageUrl: string | null;
  articleCount: number;
  method: ReportMethod;
  articleIds: string[];
  translations: Record<string, ReportTranslation>;
  grounding: Grounding;
}

export interface ReportArticle {
  id: string;
  title: string;
  url: string;
  summary: string | null;
  /** the start of the stored content (bounded): where a digest finds a sentence when there is no summary */
  content: string | null;
  source: string;
  publishedAt: Date | null;
  viewCount: number;
  citationCount: number | null;
  /** every metric the article has a value for, described to the model as one signal among several */
  metrics: Record<string, number>;
  /** its work (the article's own id when alone in it) and the identifiers deciding its version's role */
  workId?: string;
  doi?: string | null;
  arxivId?: string | null;
}

export interface ArticleSource {
  id: string;
  title: string;
  url: string;
  /** articles covering the source's work (its coverage_count, docs/decisions/0125-works.md); 0 when none */
  coverage?: number;
}

export interface ReportRepository {
  findByWeek(topicId: string, weekStart: string): Promise<WeeklyReport | null>;
  /** inserts, or replaces a report of that topic and week that is not completed */
  saveCompleted(report: NewWeeklyReport): Promise<WeeklyReport>;
  list(
    topicId: string,
    page: { limit: number; offset: number },
  ): Promise<{ items: WeeklyReport[]; total: number }>;
  latestCompleted(topicId: string): Promise<WeeklyReport | null>;
  /** the articles of these ids that still exist */
  sources(ids: string[]): Promise<ArticleSource[]>;
}

/** What the generator reads from the other areas' tables. */
export interface ReportInputs {
  /**
   * The provider that writes reports: the active multimodal one (it can also draw the cover), else
   * the active text one; null: none, the report is an extractive digest.
   */
  writingProvider(): Promise<Provider | null>;
  topic(id: string): Promise<Topic | null>;
  /** active topics with at least one article dated inside [from, to) */
  activeTopicsWithArticles(window: { from: Date; to: Date }): Promise<Topic[]>;
  /**
   * ordered by citation count desc (missing = 0), view count desc, published desc nulls last; every
   * version of a work is listed (the report keeps one, see report-works.ts)
   */
  topArticles(topicId: string, window: { from: Date; to: Date }, limit: number): Promise<ReportArticle[]>;
  /** the most frequent tag names of these articles */
  topTags(articleIds: string[], limit: number): Promise<string[]>;
}

export type DeliveryChannel = 'email' | 'messenger';

export interface Recipient {
  userId: string;
  email: string;
  displayName: string | null;
  emailEnabled: boolean;
  messengerChatId: string | null;
  messengerEnabled: boolean;
  locale: ReportLocale;
}

export interface DeliveryLog {
  /** subscribers of the topic with their notification settings (defaults when they have none) */
  recipients(topicId: string): Promise<Recipient[]>;
  /** `${userId}:${channel}` of the deliveries of this report that succeeded */
  sent(reportId: string): Promise<Set<string>>;
  record(entry: {
    reportId: string;
    userId: string;
    channel: DeliveryChannel;
    ok: boolean;
    error?: string;
  }): Promise<void>;
}

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
}

/** Sends one e-mail (SMTP in production); rejects when the server refuses it. */
export interface Mailer {
  readonly configured: boolean;
  send(message: MailMessage): Promise<void>;
}

/** Public files (report covers): local DATA_DIR/media, served at /media/... */
export interface MediaStorage {
  /** stores the bytes and returns the absolute public URL */
  put(key: string, data: Buffer, contentType: string): Promise<string>;
  get(key: string): Promise<{ data: Buffer; contentType: string } | null>;
}

export interface CoverSpec {
  topicName: string;
  tags: string[];
  weekLabel: string;
  width: number;
  height: number;
}

/** Draws an abstract cover locally (no model needed): PNG bytes. */
export interface CoverRenderer {
  render(spec: CoverSpec): Promise<Buffer>;
  /** crops and scales any image (e.g. a model's) to exactly size, as PNG */
  fit(image: Buffer, size: { width: number; height: number }): Promise<Buffer>;
}

import type { Provider, Topic } from '../../domain/catalog.js';
import type { ReportLocale } from '../../domain/reports.js';

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
  /** article ids in citation order; reports older than sources may hold non-UUID values */
  articleIds: string[];
  translations: Record<string, ReportTranslation>;
  createdAt: Date;
}

export interface NewWeeklyReport {
  topicId: string;
  weekStartDate: string;
  title: string;
  summaryText: string;
  coverImageUrl: string | null;
  articleCount: number;
  articleIds: string[];
  translations: Record<string, ReportTranslation>;
}

export interface ReportArticle {
  id: string;
  title: string;
  url: string;
  summary: string | null;
  source: string;
  publishedAt: Date | null;
  viewCount: number;
  citationCount: number | null;
  /** every metric the article has a value for, described to the model as one signal among several */
  metrics: Record<string, number>;
}

export interface ArticleSource {
  id: string;
  title: string;
  url: string;
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
  activeMultimodalProvider(): Promise<Provider | null>;
  topic(id: string): Promise<Topic | null>;
  /** active topics with at least one article dated inside [from, to) */
  activeTopicsWithArticles(window: { from: Date; to: Date }): Promise<Topic[]>;
  /** ordered by citation count desc (missing = 0), view count desc, published desc nulls last */
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

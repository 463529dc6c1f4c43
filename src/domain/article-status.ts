/**
 * Where an article is in the pipeline. A stored article starts `new`; its analysis makes it
 * `analyzed`; its flow ends `completed` or in the failure of the step that stopped it. An article
 * in a final status has nothing left to do: a job that runs again for it changes nothing.
 */
export const ARTICLE_STATUSES = [
  'new',
  'analyzed',
  'completed',
  'analysis_failed',
  'tag_normalization_failed',
  'translation_failed',
] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

/** statuses whose article still has steps to go (its job is waiting, running or lost) */
export const PENDING_ARTICLE_STATUSES = ['new', 'analyzed'] as const satisfies readonly ArticleStatus[];
export type PendingArticleStatus = (typeof PENDING_ARTICLE_STATUSES)[number];
export type FinalArticleStatus = Exclude<ArticleStatus, PendingArticleStatus>;

/** The step of an article's flow that failed; processing failures end as `analysis_failed`. */
export type ArticleFailureStage = 'processing' | 'analysis' | 'tag_normalization' | 'translation';

/** the final status a failure of each step leaves */
export const FAILURE_STATUS: Record<ArticleFailureStage, FinalArticleStatus> = {
  processing: 'analysis_failed',
  analysis: 'analysis_failed',
  tag_normalization: 'tag_normalization_failed',
  translation: 'translation_failed',
};

/** The moves an article's status may make; a final status makes none. */
const NEXT: Record<ArticleStatus, readonly ArticleStatus[]> = {
  new: ['analyzed', 'analysis_failed'],
  analyzed: ['completed', 'tag_normalization_failed', 'translation_failed'],
  completed: [],
  analysis_failed: [],
  tag_normalization_failed: [],
  translation_failed: [],
};

export const isArticleStatus = (s: string): s is ArticleStatus =>
  (ARTICLE_STATUSES as readonly string[]).includes(s);

export const isFinalStatus = (s: ArticleStatus): s is FinalArticleStatus => NEXT[s].length === 0;

export const canMove = (from: ArticleStatus, to: ArticleStatus): boolean => NEXT[from].includes(to);

/**
 * The one way back to `new`: an article stored title-only (its page could not be read) whose page
 * a later run reads starts its flow again over the text, once its first flow has ended.
 */
export const canReopen = (from: ArticleStatus): boolean => isFinalStatus(from);

/**
 * The run counts an article's final status stands for: the steps it went through and how it ended
 * (`failedStage` tells a processing failure from an analysis failure; `translated` whether it has a
 * zh-TW translation). A pending status counts nothing.
 */
export function countsOfStatus(status: ArticleStatus, failedStage: string, translated: boolean): string[] {
  const through = ['processed', 'analyzed', 'tagged', 'completed'];
  switch (status) {
    case 'completed':
      return [...through, translated ? 'translated' : 'translation_skipped'];
    case 'translation_failed':
      return [...through, 'translation_failed'];
    case 'tag_normalization_failed':
      return ['processed', 'analyzed', 'tag_normalization_failed'];
    case 'analysis_failed':
      return failedStage === 'processing' ? ['processing_failed'] : ['processed', 'analysis_failed'];
    case 'new':
    case 'analyzed':
      return [];
  }
}

import { describe, expect, it } from 'vitest';
import {
  ARTICLE_STATUSES,
  FAILURE_STATUS,
  PENDING_ARTICLE_STATUSES,
  canMove,
  canReopen,
  countsOfStatus,
  isArticleStatus,
  isFinalStatus,
  type ArticleStatus,
} from './article-status.js';

describe('article processing status', () => {
  it('allows exactly the moves of the flow: new → analyzed → completed, or the failure of a step', () => {
    const allowed = ARTICLE_STATUSES.flatMap((from) =>
      ARTICLE_STATUSES.filter((to) => canMove(from, to)).map((to) => `${from} → ${to}`),
    );
    expect(allowed.sort()).toEqual(
      [
        'new → analyzed',
        'new → analysis_failed',
        'analyzed → completed',
        'analyzed → tag_normalization_failed',
        'analyzed → translation_failed',
      ].sort(),
    );
  });

  it('a final status moves nowhere, not even to itself; a pending one never goes back', () => {
    for (const from of ARTICLE_STATUSES)
      for (const to of ARTICLE_STATUSES) {
        if (isFinalStatus(from)) expect(canMove(from, to), `${from} → ${to}`).toBe(false);
        if (to === 'new') expect(canMove(from, to), `${from} → new`).toBe(false);
      }
    expect(canMove('analyzed', 'analyzed')).toBe(false);
  });

  it('the pending statuses are the ones that are not final, and every final one is reachable', () => {
    const pending = ARTICLE_STATUSES.filter((s) => !isFinalStatus(s));
    expect(pending).toEqual([...PENDING_ARTICLE_STATUSES]);
    for (const s of ARTICLE_STATUSES.filter(isFinalStatus))
      expect(
        ARTICLE_STATUSES.some((from) => canMove(from, s)),
        s,
      ).toBe(true);
  });

  it('each failing step leaves a failure status its step can reach', () => {
    expect(canMove('new', FAILURE_STATUS.processing)).toBe(true);
    expect(canMove('new', FAILURE_STATUS.analysis)).toBe(true);
    expect(canMove('analyzed', FAILURE_STATUS.tag_normalization)).toBe(true);
    expect(canMove('analyzed', FAILURE_STATUS.translation)).toBe(true);
  });

  it('reopens (back to new, for a page read later) only an article whose flow has ended', () => {
    expect(ARTICLE_STATUSES.filter(canReopen)).toEqual(ARTICLE_STATUSES.filter(isFinalStatus));
    expect(canReopen('new')).toBe(false);
    expect(canReopen('analyzed')).toBe(false);
  });

  it('tells statuses from other strings', () => {
    expect(isArticleStatus('completed')).toBe(true);
    expect(isArticleStatus('done')).toBe(false);
  });

  it('counts a final status as the steps it went through; a pending one as nothing', () => {
    const c = (s: ArticleStatus, stage = '', translated = false) => countsOfStatus(s, stage, translated);
    expect(c('completed', '', true)).toEqual(['processed', 'analyzed', 'tagged', 'completed', 'translated']);
    expect(c('completed')).toContain('translation_skipped');
    expect(c('translation_failed')).toContain('translation_failed');
    expect(c('tag_normalization_failed')).toEqual(['processed', 'analyzed', 'tag_normalization_failed']);
    expect(c('analysis_failed', 'processing')).toEqual(['processing_failed']);
    expect(c('analysis_failed', 'analysis')).toEqual(['processed', 'analysis_failed']);
    expect(c('new')).toEqual([]);
    expect(c('analyzed')).toEqual([]);
  });
});

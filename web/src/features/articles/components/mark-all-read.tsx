import { useState } from 'react';
import { CheckCheck, Undo2 } from 'lucide-react';
import { ConfirmDialog } from '../../../lib/dialog';
import { useI18n } from '../../../lib/i18n';
import { formatNumber } from '../../../lib/format';
import type { MarkReadFilter } from '../../../lib/api-types';
import { errorText } from '../../../lib/ui';
import { useCountUnread, useMarkAllRead, useUndoMarkAll } from '../api/read-state';

/**
 * "Mark all as read" of the list's filters: it first asks with the number of unread articles it
 * would mark (the api's dry run), then says how many it marked and offers to take exactly those
 * back until the next mark-all.
 */
export function MarkAllRead({ filter }: { filter: MarkReadFilter }) {
  const { t, locale } = useI18n();
  const count = useCountUnread();
  const markAll = useMarkAllRead();
  const undo = useUndoMarkAll();
  const [asking, setAsking] = useState(false);
  const error = (e: unknown) => errorText(e, locale, t('common.error'));

  const ask = () => {
    markAll.reset();
    undo.reset();
    count.mutate(filter);
    setAsking(true);
  };
  const n = count.data?.marked;
  const question =
    n === undefined
      ? t('articles.markAllCounting')
      : n === 0
        ? t('articles.markAllNone')
        : n === 1
          ? t('articles.markAllConfirmOne')
          : t('articles.markAllConfirm', { count: formatNumber(n, locale) });
  const token = markAll.data?.undo_token;

  return (
    <>
      <button type="button" onClick={ask} disabled={markAll.isPending} data-testid="mark-all-read">
        <CheckCheck size={16} aria-hidden="true" /> {t('articles.markAllRead')}
      </button>
      <span role="status" className="mark-all-status">
        {markAll.isSuccess && !undo.isSuccess && (
          <span className="saved" data-testid="marked">
            {t('articles.markedRead', { count: formatNumber(markAll.data.marked, locale) })}{' '}
            {token && (
              <button
                type="button"
                className="link-button"
                onClick={() => undo.mutate(token)}
                disabled={undo.isPending}
                data-testid="undo-mark-all"
              >
                <Undo2 size={14} aria-hidden="true" /> {t('articles.undo')}
              </button>
            )}
          </span>
        )}
        {undo.isSuccess && (
          <span className="saved" data-testid="undone">
            {t('articles.undone', { count: formatNumber(undo.data.unmarked, locale) })}
          </span>
        )}
      </span>
      {(markAll.isError || undo.isError) && !asking && (
        <span className="form-error" role="alert">
          {error(markAll.error ?? undo.error)}
        </span>
      )}
      {asking && (
        <ConfirmDialog
          title={t('articles.markAllRead')}
          confirmLabel={t('articles.markAllRead')}
          pending={markAll.isPending || !n}
          error={count.isError ? error(count.error) : markAll.isError ? error(markAll.error) : null}
          onConfirm={() => markAll.mutate(filter, { onSuccess: () => setAsking(false) })}
          onClose={() => setAsking(false)}
          testId="mark-all-confirm"
        >
          <p data-testid="mark-all-question">{question}</p>
        </ConfirmDialog>
      )}
    </>
  );
}

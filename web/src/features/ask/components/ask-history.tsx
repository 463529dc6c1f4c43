import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Trash2 } from 'lucide-react';
import { useI18n, useT } from '../../../lib/i18n';
import { ConfirmDialog } from '../../../lib/dialog';
import { formatDate } from '../../../lib/format';
import { ErrorState, Loading, errorText } from '../../../lib/ui';
import { useAskHistory, useClearHistory } from '../api/ask';
import { askMessages } from '../messages';
import { askHref } from '../model/ask-href';
import { AnswerView } from './answer-view';

/** The reader's own questions and answers, newest first, and "Clear history" (confirmed first). */
export function AskHistory({ onCleared }: { onCleared(): void }) {
  const { t, locale } = useT(askMessages);
  const app = useI18n();
  const history = useAskHistory();
  const [confirming, setConfirming] = useState(false);
  const [cleared, setCleared] = useState(false);
  const clear = useClearHistory(() => {
    setConfirming(false);
    setCleared(true);
    onCleared();
  });
  const total = history.data?.total ?? 0;
  // the button that opened the dialog is gone with the list: the focus goes to what happened
  const clearedRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (cleared) clearedRef.current?.focus();
  }, [cleared]);

  return (
    <aside className="ask-history" aria-labelledby="ask-history-title" data-testid="ask-history">
      <div className="ask-history-head">
        <h2 id="ask-history-title">{t('history')}</h2>
        {total > 0 && (
          <button
            type="button"
            className="danger"
            onClick={() => {
              clear.reset();
              setConfirming(true);
            }}
            data-testid="ask-clear"
          >
            <Trash2 size={16} aria-hidden="true" /> {t('clear')}
          </button>
        )}
      </div>
      <p className="muted ask-history-note">{t('historyNote')}</p>
      {cleared && total === 0 && (
        <p className="saved" role="status" data-testid="ask-cleared" tabIndex={-1} ref={clearedRef}>
          {t('cleared')}
        </p>
      )}
      {history.isLoading ? (
        <Loading />
      ) : history.isError ? (
        <ErrorState error={history.error} onRetry={() => void history.refetch()} />
      ) : total === 0 ? (
        !cleared && <p className="muted">{t('historyEmpty')}</p>
      ) : (
        <>
          <p className="count">{t('historyCount', { count: total })}</p>
          <ul className="ask-history-list" data-testid="ask-history-list">
            {history.data?.items.map((item) => (
              <li key={item.id} data-history-id={item.id}>
                <details>
                  <summary>
                    <span className="ask-history-q" lang={item.language}>
                      {item.question}
                    </span>
                    <span className="ask-history-meta">
                      {t('askedOn', { date: formatDate(item.created_at, locale) })}
                      {item.abstained && <span className="ask-history-none"> · {t('noAnswer')}</span>}
                    </span>
                  </summary>
                  <AnswerView answer={item} headingLevel={3} />
                  <Link to={askHref(item.question)} className="ask-again">
                    {t('again')}
                  </Link>
                </details>
              </li>
            ))}
          </ul>
        </>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('clearTitle')}
          confirmLabel={t('clearConfirm')}
          danger
          pending={clear.isPending}
          error={clear.isError ? errorText(clear.error, app.locale, app.t('common.error')) : null}
          onConfirm={() => clear.mutate()}
          onClose={() => setConfirming(false)}
          testId="ask-clear-dialog"
        >
          <p>{t('clearBody', { count: total })}</p>
        </ConfirmDialog>
      )}
    </aside>
  );
}

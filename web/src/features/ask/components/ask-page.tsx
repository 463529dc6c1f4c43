import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useI18n, useT } from '../../../lib/i18n';
import { useTopics } from '../../../lib/topics';
import { ApiError } from '../../../lib/api-client';
import { errorText } from '../../../lib/ui';
import { AskError, askStream, historyKey, type AskAnswer, type RetrievedPassage } from '../api/ask';
import { askMessages } from '../messages';
import { AskBox } from './ask-box';
import { AnswerView } from './answer-view';
import { AskHistory } from './ask-history';
import './ask.css';

type Phase =
  | { kind: 'searching' }
  | { kind: 'writing'; passages: RetrievedPassage[]; draft: string }
  | { kind: 'done'; answer: AskAnswer; passages?: number }
  | { kind: 'error'; error: unknown };

/**
 * Answers already shown, by the history entry of the page (back from a source's reader view shows
 * the same answer instead of asking again). Only in memory, only a few, and gone with "Clear".
 */
const shown = new Map<string, { answer: AskAnswer; passages?: number }>();
const SHOWN_KEEP = 10;

/**
 * One question asked as the page's address says (`/ask?q=&topic=`), its answer streamed as the
 * model writes it. Leaving the page or asking again aborts the stream (and the server's work).
 */
function useAsk(question: string, topicId: string | undefined, entry: string): Phase | null {
  const [phase, setPhase] = useState<Phase | null>(null);
  const qc = useQueryClient();
  useEffect(() => {
    if (!question) {
      setPhase(null);
      return;
    }
    const known = shown.get(entry);
    if (known) {
      setPhase({ kind: 'done', ...known });
      return;
    }
    const controller = new AbortController();
    let passages: number | undefined;
    setPhase({ kind: 'searching' });
    askStream(
      { question, topic_id: topicId },
      {
        retrieved: (list) => {
          passages = list.length;
          setPhase({ kind: 'writing', passages: list, draft: '' });
        },
        delta: (draft) =>
          setPhase((p) =>
            p?.kind === 'writing' ? { ...p, draft } : { kind: 'writing', passages: [], draft },
          ),
      },
      controller.signal,
    ).then(
      (answer) => {
        shown.set(entry, { answer, passages });
        if (shown.size > SHOWN_KEEP) shown.delete(shown.keys().next().value!);
        setPhase({ kind: 'done', answer, passages });
        // a first read of the history still under way may predate this answer: it is dropped, not
        // joined (invalidating alone would join it), and the history read again
        void qc
          .cancelQueries({ queryKey: historyKey })
          .then(() => qc.invalidateQueries({ queryKey: historyKey }));
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setPhase({ kind: 'error', error });
      },
    );
    return () => controller.abort();
  }, [question, topicId, entry, qc]);
  return phase;
}

export default function AskPage() {
  const { t } = useT(askMessages);
  const app = useI18n();
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const topics = useTopics();
  const question = params.get('q')?.trim() ?? '';
  const topicId = params.get('topic') || undefined;
  const topic = topicId
    ? { id: topicId, name: topics.data?.find((x) => x.id === topicId)?.name ?? '' }
    : undefined;
  const phase = useAsk(question, topicId, location.key);
  const busy = phase?.kind === 'searching' || phase?.kind === 'writing';

  return (
    <section className="ask-page" data-testid="ask-page">
      <p>
        <Link
          className="back-link"
          to={topicId ? `/articles?topic=${encodeURIComponent(topicId)}` : '/articles'}
        >
          <ArrowLeft size={16} aria-hidden="true" /> {t('back')}
        </Link>
      </p>
      <h1>{t('title')}</h1>
      <AskBox key={`${question}|${topicId ?? ''}`} topic={topic} initial={question} />
      <div className="ask-layout">
        <div className="ask-main" aria-busy={busy} data-testid="ask-main">
          {!question ? (
            <p className="muted">{t('noQuestion')}</p>
          ) : (
            <>
              <p className="field-label">{t('question')}</p>
              <h2 className="ask-question" data-testid="ask-question-shown">
                {question}
              </h2>
              <p className="ask-scope muted">
                {topic?.name ? t('scopeTopic', { topic: topic.name }) : topic ? null : t('scopeAll')}
              </p>
              {phase?.kind === 'searching' && (
                <p className="ask-status" role="status">
                  <span className="ask-spinner" aria-hidden="true" /> {t('searching')}
                </p>
              )}
              {phase?.kind === 'writing' && (
                <div className="ask-live" data-testid="ask-live">
                  <p className="ask-status" role="status">
                    <span className="ask-spinner" aria-hidden="true" />{' '}
                    {t('writing', { count: phase.passages.length })}
                  </p>
                  {phase.draft && (
                    <div className="ask-text ask-draft" data-testid="ask-draft">
                      {phase.draft
                        .split(/\n+/)
                        .filter((l) => l.trim())
                        .map((l, i) => (
                          <p key={i}>{l}</p>
                        ))}
                    </div>
                  )}
                  {phase.passages.length > 0 && (
                    <details className="ask-found">
                      <summary>{t('found')}</summary>
                      <ol>
                        {phase.passages.map((p) => (
                          <li key={p.n} value={p.n}>
                            <Link to={`/articles/${encodeURIComponent(p.article_id)}`}>{p.title}</Link>
                          </li>
                        ))}
                      </ol>
                    </details>
                  )}
                </div>
              )}
              {phase?.kind === 'done' && (
                <>
                  <h2 className="visually-hidden">{t('answer')}</h2>
                  <AnswerView
                    answer={phase.answer}
                    passages={phase.passages}
                    question={question}
                    topicId={topicId}
                  />
                </>
              )}
              {phase?.kind === 'error' && (
                <div
                  className="state state-error"
                  role="alert"
                  data-testid="ask-error"
                  data-error-code={phase.error instanceof ApiError ? phase.error.code : undefined}
                >
                  <p>
                    {errorText(phase.error, app.locale, app.t('common.error'))}
                    {phase.error instanceof AskError && phase.error.retryAfter && (
                      <>
                        {app.locale === 'zh-TW' ? '' : ' '}
                        {t('retryIn', { count: phase.error.retryAfter })}
                      </>
                    )}
                  </p>
                  <button type="button" onClick={() => void navigate(location.pathname + location.search)}>
                    {app.t('common.retry')}
                  </button>
                </div>
              )}
            </>
          )}
        </div>
        <AskHistory onCleared={() => shown.clear()} />
      </div>
    </section>
  );
}

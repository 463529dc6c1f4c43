import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ExternalLink, Quote, SearchX, ShieldCheck, Sparkles } from 'lucide-react';
import { useT } from '../../../lib/i18n';
import { safeUrl, type Citation } from '../api/ask';
import { askMessages } from '../messages';
import { askHref } from '../model/ask-href';

export interface ShownAnswer {
  answer: string;
  abstained: boolean;
  language: 'en' | 'zh-TW';
  method: 'model' | 'extractive';
  citations: Citation[];
  /** only a fresh answer has it (the history keeps no grounding) */
  grounding?: { score: number; sentences: unknown[] };
}

/**
 * An answer with its `[N]` markers linked to the sources listed under it (the reader view, the
 * original, and the passage that supports it), how it was written and how grounded it is. An
 * abstention is shown as such, not as an error.
 */
export function AnswerView({
  answer,
  passages,
  question,
  topicId,
  headingLevel = 2,
}: {
  answer: ShownAnswer;
  /** how many passages the answer was written from, when known (a streamed answer) */
  passages?: number;
  question?: string;
  topicId?: string;
  headingLevel?: 2 | 3;
}) {
  const { t, locale } = useT(askMessages);
  const prefix = useId();
  const H = `h${headingLevel + 1}` as 'h3';
  const sourceId = (n: number) => `${prefix}-source-${n}`;
  const byN = new Map(answer.citations.map((c) => [c.n, c]));
  const cite = (c: Citation) => t('cite', { n: c.n, title: c.title });

  if (answer.abstained)
    return (
      <div className="ask-abstained" data-testid="ask-abstained">
        <SearchX size={20} aria-hidden="true" />
        <div>
          <p className="ask-abstained-title">{t('abstained')}</p>
          <p lang={answer.language}>{answer.answer}</p>
          <p className="muted">
            {t('abstainedHint')}
            {question && topicId && (
              <>
                {' '}
                <Link to={askHref(question)} data-testid="ask-all-topics">
                  {t('askAllTopics')}
                </Link>
              </>
            )}
          </p>
        </div>
      </div>
    );

  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
  return (
    <div className="ask-answer" data-testid="ask-answer" data-method={answer.method}>
      <div className="ask-text" data-testid="ask-text" lang={answer.language}>
        {blocks(answer.answer).map((block, i) =>
          typeof block === 'string' ? (
            <p key={i}>{withCitations(block, byN, sourceId, cite)}</p>
          ) : (
            <ul key={i}>
              {block.map((item, j) => (
                <li key={j}>{withCitations(item, byN, sourceId, cite)}</li>
              ))}
            </ul>
          ),
        )}
      </div>
      <p className="ask-method" data-testid="ask-method">
        {answer.method === 'extractive' ? (
          <Quote size={16} aria-hidden="true" />
        ) : (
          <Sparkles size={16} aria-hidden="true" />
        )}
        <span>
          {answer.method === 'extractive'
            ? t('methodExtractive')
            : passages
              ? t('methodModel', { count: passages })
              : t('methodModelPlain')}
        </span>
      </p>
      {answer.grounding && answer.grounding.sentences.length > 0 && (
        <p className="ask-method" data-testid="ask-grounding" data-score={answer.grounding.score}>
          <ShieldCheck size={16} aria-hidden="true" />
          <span>
            {t('grounding', {
              percent: percent.format(answer.grounding.score),
              count: answer.grounding.sentences.length,
            })}
          </span>
        </p>
      )}
      {answer.citations.length > 0 && (
        <section aria-labelledby={`${prefix}-sources`}>
          <H id={`${prefix}-sources`}>{t('sources')}</H>
          <ol className="ask-sources" data-testid="ask-sources">
            {answer.citations.map((c) => {
              const url = safeUrl(c.url);
              const host = url ? new URL(url).host : null;
              return (
                <li key={c.n} value={c.n} id={sourceId(c.n)} tabIndex={-1} data-source={c.n}>
                  <Link to={`/articles/${encodeURIComponent(c.article_id)}`} className="ask-source-title">
                    {c.title}
                  </Link>
                  {url && host && (
                    <>
                      {' '}
                      <a
                        href={url}
                        target="_blank"
                        rel="noopener noreferrer"
                        className="ask-source-url"
                        aria-label={t('original', { host })}
                      >
                        {host} <ExternalLink size={12} aria-hidden="true" />
                      </a>
                    </>
                  )}
                  {c.quote && <blockquote className="ask-quote">{c.quote}</blockquote>}
                </li>
              );
            })}
          </ol>
        </section>
      )}
    </div>
  );
}

/** The answer's lines as paragraphs; consecutive `- ` lines (the quotes of an extractive answer) as one list. */
function blocks(text: string): (string | string[])[] {
  const out: (string | string[])[] = [];
  for (const line of text.split(/\n+/)) {
    if (!line.trim()) continue;
    const item = /^\s*[-•]\s+(.*)$/.exec(line)?.[1];
    if (item === undefined) out.push(line);
    else if (Array.isArray(out.at(-1))) (out.at(-1) as string[]).push(item);
    else out.push([item]);
  }
  return out;
}

/** The text with each `[N]` of a listed source as a link to it; other brackets stay text. */
function withCitations(
  text: string,
  byN: Map<number, Citation>,
  sourceId: (n: number) => string,
  label: (c: Citation) => string,
): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(/\[(\d{1,3})\]/g)) {
    const c = byN.get(Number(m[1]));
    if (!c) continue;
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(
      <a
        key={m.index}
        href={`#${sourceId(c.n)}`}
        className="citation"
        data-citation={c.n}
        aria-label={label(c)}
        // the page's address stays as it is (a new one would ask again): the source takes the focus
        onClick={(e) => {
          e.preventDefault();
          const target = document.getElementById(sourceId(c.n));
          target?.focus();
          target?.scrollIntoView({ block: 'nearest' });
        }}
      >
        [{c.n}]
      </a>,
    );
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

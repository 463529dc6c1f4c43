import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { Check, ExternalLink, Heart } from 'lucide-react';
import { useI18n } from '../../../lib/i18n';
import { useHotkeys } from '../../../lib/keyboard';
import { useSession } from '../../../lib/session';
import { ErrorState, Loading, errorText } from '../../../lib/ui';
import { recordView, refreshViewCount, useArticle } from '../api/articles';
import { useToggleFavorite } from '../api/favorites';
import { useSetRead } from '../api/read-state';
import { useMetricDefinitions } from '../api/metric-definitions';
import { listHref } from '../model/list-state';
import { useNeighbors } from '../model/use-neighbors';
import { ArticleContent } from './article-content';
import { ArticleDate } from './article-date';
import { IdentifierBadges } from './identifier-badges';
import { MetricDetails } from './metric-details';
import { MetricList } from './metric-list';
import { ReaderNav } from './reader-nav';
import { SignInHint } from './sign-in-hint';
import { SimilarArticles } from './similar-articles';

/** The reader view: content, summary and translation, identifiers, metrics, toggles and neighbors. */
export default function ArticleDetailPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const from = params.get('from');
  const navigate = useNavigate();
  const { t, locale } = useI18n();
  const { user } = useSession();
  const article = useArticle(id);
  const definitions = useMetricDefinitions();
  const favorite = useToggleFavorite();
  const setRead = useSetRead();
  const { previous, next, position, loading } = useNeighbors(id, from, !!user);
  const a = article.data;
  const isRead = a?.is_read === true;

  const qc = useQueryClient();
  useEffect(() => {
    // the view is counted after the article was read: the reader view and the list (marked stale,
    // read again when shown) then show the count with it, the same number everywhere
    if (article.isSuccess) recordView(id, () => refreshViewCount(qc, id));
  }, [article.isSuccess, id, qc]);
  useEffect(() => {
    // a block: newer Chromium returns a promise from scrollTo, which React would take for a cleanup
    window.scrollTo(0, 0);
  }, [id]);

  const [guestHint, setGuestHint] = useState(0);
  const hintGuest = () => setGuestHint((n) => n + 1);
  const openOriginal = () => a && window.open(a.url, '_blank', 'noopener,noreferrer');
  // back to the list as it was: its URL state, and the focus on this article's card
  const back = () => void navigate(listHref(from), { state: { returnTo: id } });
  // j or k pressed before its neighbor's page was read (the article at an edge of its page): kept,
  // and followed once the neighbor is known; dropped when there is none
  const wanted = useRef<'previous' | 'next' | null>(null);
  const neighbors = { previous, next };
  const step = (which: 'previous' | 'next') => {
    const to = neighbors[which];
    wanted.current = !to && loading[which] ? which : null;
    if (to) void navigate(to.href);
  };
  const nextHref = next?.href;
  const previousHref = previous?.href;
  useEffect(() => {
    const which = wanted.current;
    if (!which) return;
    const href = which === 'next' ? nextHref : previousHref;
    if (href) {
      wanted.current = null;
      void navigate(href);
    } else if (!(which === 'next' ? loading.next : loading.previous)) wanted.current = null;
  }, [nextHref, previousHref, loading.next, loading.previous, navigate]);
  useEffect(() => {
    wanted.current = null;
  }, [id]);
  useHotkeys({
    j: () => step('next'),
    k: () => step('previous'),
    f: () => (user ? a && favorite.mutate({ id: a.id, favorite: !a.is_favorited }) : hintGuest()),
    m: () => (user ? a && setRead.mutate({ id: a.id, read: !isRead }) : hintGuest()),
    o: openOriginal,
    v: openOriginal,
    u: back,
    Escape: back,
  });

  if (article.isLoading) return <Loading />;
  if (article.isError || !a)
    return (
      <>
        <ReaderNav from={from} returnTo={id} />
        <ErrorState error={article.error} onRetry={() => void article.refetch()} />
      </>
    );
  const zh = a.translations?.['zh-TW'];
  const showZhFirst = locale === 'zh-TW' && !!zh?.title;
  const writeError = favorite.error ?? setRead.error;

  return (
    <article className="article-detail" data-article-id={a.id} data-read={user ? String(isRead) : undefined}>
      <ReaderNav from={from} returnTo={id} previous={previous} next={next} position={position} />
      <h1>{showZhFirst ? zh!.title : a.title}</h1>
      <p className="meta">
        {a.source && <span>{a.source}</span>}
        {a.author && <span>{a.author}</span>}
        <span>
          {a.published_at && `${t('articles.published')} `}
          <ArticleDate published={a.published_at} />
        </span>
        <span data-testid="views">{t('articles.views', { count: a.view_count })}</span>
      </p>
      <div className="reader-actions">
        {user ? (
          <>
            <button
              type="button"
              className={a.is_favorited ? 'heart on' : 'heart'}
              aria-pressed={a.is_favorited}
              onClick={() => favorite.mutate({ id: a.id, favorite: !a.is_favorited })}
              disabled={favorite.isPending}
              data-testid="favorite"
            >
              <Heart size={16} aria-hidden="true" fill={a.is_favorited ? 'currentColor' : 'none'} />
              {t(a.is_favorited ? 'articles.unfavorite' : 'articles.favorite')}
            </button>
            <button
              type="button"
              className={isRead ? 'read on' : 'read'}
              aria-pressed={isRead}
              onClick={() => setRead.mutate({ id: a.id, read: !isRead })}
              disabled={setRead.isPending}
              data-testid="read-toggle"
            >
              <Check size={16} aria-hidden="true" />
              {t(isRead ? 'articles.markUnread' : 'articles.markRead')}
            </button>
          </>
        ) : (
          <Link to={`/login?next=${encodeURIComponent(`/articles/${a.id}`)}`} className="heart">
            <Heart size={16} aria-hidden="true" /> {t('articles.signInToFavorite')}
          </Link>
        )}
        <a href={a.url} target="_blank" rel="noopener noreferrer" data-testid="original-link">
          {t('articles.readOriginal')} <ExternalLink size={14} aria-hidden="true" />
        </a>
      </div>
      {!user && guestHint > 0 && <SignInHint key={guestHint} />}
      {writeError && (
        <p className="form-error" role="alert">
          {errorText(writeError, locale, t('common.error'))}
        </p>
      )}
      <IdentifierBadges doi={a.doi} arxivId={a.arxiv_id} />
      {Array.isArray(a.metric_details) ? (
        <MetricDetails details={a.metric_details} definitions={definitions.data ?? []} />
      ) : (
        <MetricList metrics={a.metrics} definitions={definitions.data ?? []} />
      )}
      {a.summary && (
        <section>
          <h2>{t('articles.summary')}</h2>
          <p data-testid="summary">{showZhFirst && zh?.summary ? zh.summary : a.summary}</p>
        </section>
      )}
      {zh && (zh.title || zh.summary) && !showZhFirst && (
        <section lang="zh-TW" className="translation" data-testid="translation">
          <h2>{t('articles.translation')}</h2>
          {zh.title && <h3>{zh.title}</h3>}
          {zh.summary && <p>{zh.summary}</p>}
        </section>
      )}
      {a.content_html ? (
        <section aria-labelledby="content-title">
          <h2 id="content-title">{t('articles.content')}</h2>
          <ArticleContent html={a.content_html} lang={a.language} />
        </section>
      ) : (
        a.content &&
        a.content !== a.summary && (
          <section aria-labelledby="content-title">
            <h2 id="content-title">{t('articles.content')}</h2>
            <div className="article-content plain" lang={a.language ?? undefined}>
              {a.content.split(/\n{2,}/).map((p, i) => (
                <p key={i}>{p}</p>
              ))}
            </div>
          </section>
        )
      )}
      {a.tags.length > 0 && (
        <section>
          <h2>{t('articles.tags')}</h2>
          <ul className="tags">
            {a.tags.map((tag) => (
              <li key={tag}>
                <Link to={`/articles?tag=${encodeURIComponent(tag)}`}>{tag}</Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      <SimilarArticles id={a.id} />
    </article>
  );
}

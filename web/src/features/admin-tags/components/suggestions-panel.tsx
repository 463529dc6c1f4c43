import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Check, X } from 'lucide-react';
import { useSession } from '../../../lib/session';
import { ErrorState, Loading } from '../../../lib/ui';
import { useSuggestionPage, type SuggestionDetail, type TagWrites } from '../api/tags';
import { useT } from '../../../lib/i18n';
import { tagsMessages } from '../messages';

const PAGE = 20;

/**
 * Pending normalization suggestions: the two tags with their groups and article counts, how
 * similar their names are (cosine of the embeddings, as a percentage), and the articles that
 * brought the new tag in, each linking to its reader view. Approve merges, reject keeps both.
 */
export function SuggestionsPanel({ topicId, writes }: { topicId: string; writes: TagWrites }) {
  const { t } = useT(tagsMessages);
  const [offset, setOffset] = useState(0);
  const list = useSuggestionPage(topicId, offset);
  const total = list.data?.total ?? 0;
  // the last page emptied by approvals: show the one before
  useEffect(() => {
    if (list.data && offset > 0 && offset >= total) setOffset(Math.max(0, offset - PAGE));
  }, [list.data, offset, total]);
  return (
    <section className="card admin-section" aria-labelledby="suggestions-title" data-testid="suggestions">
      <h2 id="suggestions-title">{t('tags.sugg.title')}</h2>
      {list.isLoading ? (
        <Loading />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : total === 0 ? (
        <p className="state state-empty">{t('tags.sugg.none')}</p>
      ) : (
        <ul className="suggestion-list">
          {list.data?.items.map((s) => (
            <SuggestionItem key={s.id} s={s} writes={writes} />
          ))}
        </ul>
      )}
      {total > PAGE && (
        <nav className="pager" aria-label={t('tags.sugg.title')}>
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            {t('tags.previous')}
          </button>
          <span>{t('tags.page', { page: offset / PAGE + 1, pages: Math.ceil(total / PAGE) })}</span>
          <button type="button" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
            {t('tags.next')}
          </button>
        </nav>
      )}
    </section>
  );
}

function SuggestionItem({ s, writes }: { s: SuggestionDetail; writes: TagWrites }) {
  const { t, locale } = useT(tagsMessages);
  const { user } = useSession();
  const ungrouped = t('tags.ungrouped');
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(
    s.similarity_score,
  );
  const names = { newTag: s.new_tag.name, existingTag: s.existing_tag.name };
  const side = (x: SuggestionDetail['new_tag']) => (
    <span className="suggestion-tag">
      <strong>{x.name}</strong>{' '}
      <small className="muted">
        ({x.group ?? ungrouped}, {t('tags.articles', { count: x.article_count })})
      </small>
    </span>
  );
  return (
    <li data-suggestion-id={s.id} className="suggestion">
      <div className="suggestion-pair">
        {side(s.new_tag)}
        <span aria-hidden="true">→</span>
        {side(s.existing_tag)}
      </div>
      <div className="suggestion-similarity" title={t('tags.sugg.similarityHint')}>
        <meter
          min={0}
          max={1}
          value={s.similarity_score}
          aria-label={t('tags.sugg.similarity', { percent })}
        />
        <span data-testid="similarity">{t('tags.sugg.similarity', { percent })}</span>
      </div>
      {s.articles.length > 0 && (
        <div className="suggestion-articles">
          <span className="muted">{t('tags.sugg.from')}</span>
          <ul>
            {s.articles.map((a) => (
              <li key={a.id}>
                <Link to={`/articles/${a.id}`}>{a.title}</Link>
              </li>
            ))}
          </ul>
        </div>
      )}
      <span className="group-actions">
        <button
          type="button"
          aria-label={t('tags.sugg.approveLabel', names)}
          disabled={!user || writes.resolve.isPending}
          onClick={() => writes.resolve.mutate({ id: s.id, action: 'approve', resolved_by: user!.id })}
        >
          <Check size={16} aria-hidden="true" /> {t('tags.sugg.approve')}
        </button>
        <button
          type="button"
          aria-label={t('tags.sugg.rejectLabel', names)}
          disabled={!user || writes.resolve.isPending}
          onClick={() => writes.resolve.mutate({ id: s.id, action: 'reject', resolved_by: user!.id })}
        >
          <X size={16} aria-hidden="true" /> {t('tags.sugg.reject')}
        </button>
      </span>
    </li>
  );
}

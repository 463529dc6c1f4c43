import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useI18n, useT } from '../../../lib/i18n';
import { formatDate } from '../../../lib/format';
import { ErrorState, Loading } from '../../../lib/ui';
import { parseFind, useArticleSearch, useWork, type Article } from '../api/works';
import { worksAdminMessages } from '../messages';

/** A work found by the admin: its id, the title standing for it and its number of versions. */
export interface FoundWork {
  id: string;
  title: string;
  versions: number;
}

/** The search box: an article title, or an article or work id (alone or in an address of this app). */
export function FindForm({
  label,
  hint,
  initial = '',
  onFind,
  testId,
}: {
  label: string;
  hint: string;
  initial?: string;
  onFind(found: { id: string } | { q: string }): void;
  testId: string;
}) {
  const text = useT(worksAdminMessages);
  const hintId = useId();
  const [value, setValue] = useState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = parseFind(value);
    if (found) onFind(found);
  };
  return (
    <form className="works-find" role="search" onSubmit={submit} data-testid={testId}>
      <label>
        {label}
        <input
          type="search"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-describedby={hintId}
          maxLength={500}
        />
      </label>
      <button type="submit">{text.t('findButton')}</button>
      <p id={hintId} className="muted">
        {hint}
      </p>
    </form>
  );
}

/**
 * What a find gives: for words, the matching articles (one row per work); for an id, its work.
 * Each row has one action (`action` renders it).
 */
export function FindResults({
  find,
  action,
}: {
  find: { id: string } | { q: string };
  action(work: FoundWork, article: Article | null): ReactNode;
}) {
  return 'id' in find ? <ById id={find.id} action={action} /> : <ByWords q={find.q} action={action} />;
}

function ById({ id, action }: { id: string; action(work: FoundWork, article: null): ReactNode }) {
  const text = useT(worksAdminMessages);
  const work = useWork(id);
  if (work.isPending) return <Loading />;
  if (work.isError) return <ErrorState error={work.error} />;
  const versions = work.data.versions.filter((v) => v.role !== 'coverage').length;
  return (
    <ul className="works-results" data-testid="work-results">
      <li data-testid="work-result" data-work-id={work.data.id}>
        <span className="works-result-title">{work.data.title}</span>
        <span className="muted">{text.t('versions', { count: versions })}</span>
        {action({ id: work.data.id, title: work.data.title, versions }, null)}
      </li>
    </ul>
  );
}

function ByWords({ q, action }: { q: string; action(work: FoundWork, article: Article): ReactNode }) {
  const text = useT(worksAdminMessages);
  const { locale } = useI18n();
  const found = useArticleSearch(q);
  if (found.isPending) return <p role="status">{text.t('searching')}</p>;
  if (found.isError) return <ErrorState error={found.error} onRetry={() => void found.refetch()} />;
  if (!found.data.length)
    return (
      <p className="muted" role="status">
        {text.t('noMatch', { q })}
      </p>
    );
  return (
    <ul className="works-results" data-testid="work-results" aria-label={text.t('results')}>
      {found.data.map((a) => (
        <li key={a.id} data-testid="work-result" data-work-id={a.work.id} data-article-id={a.id}>
          <span className="works-result-title">{a.title}</span>
          <span className="muted">
            {[a.source, a.published_at ? formatDate(a.published_at, locale) : text.t('dateUnknown')]
              .filter(Boolean)
              .join(' · ')}
            {' · '}
            {text.t('versions', { count: a.work.versions })}
          </span>
          {action({ id: a.work.id, title: a.title, versions: a.work.versions }, a)}
        </li>
      ))}
    </ul>
  );
}

import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../lib/dialog';
import { formatDate, formatNumber } from '../../../lib/format';
import { useI18n, useT } from '../../../lib/i18n';
import { errorMessage } from '../../../lib/ui';
import { useMergeWorks, useRefreshWork, useSplitWork, type Work } from '../api/works';
import { worksAdminMessages } from '../messages';
import { FindForm, FindResults, type FoundWork } from './work-finder';

type Version = Work['versions'][number];

/** What a split or a merge leaves: the work to show now, what to tell, and a new work to open. */
export interface Outcome {
  workId: string;
  notice: string;
  newWorkId?: string;
}

/**
 * One work for the admin: its identifiers and counts, its versions (role, source, date) with a
 * checkbox each to split some off, its coverage (not members: nothing to split), and a second
 * search to merge another work into it. Both changes are confirmed first, and remembered by the
 * server as decisions later linking keeps (docs/decisions/0125-works.md).
 */
export function WorkPanel({ work, onDone }: { work: Work; onDone(outcome: Outcome): void }) {
  const text = useT(worksAdminMessages);
  const { t, locale } = useI18n();
  const own = work.versions.filter((v) => v.role !== 'coverage');
  const coverage = work.versions.filter((v) => v.role === 'coverage');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirmSplit, setConfirmSplit] = useState(false);
  const split = useSplitWork();
  const refresh = useRefreshWork();
  const all = selected.size > 0 && selected.size >= own.length;

  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  // mutateAsync, not mutate's own callbacks: the refetch after the split may remount this panel
  // (its work changed) before they run, and they never run for an unmounted one
  const doSplit = async () => {
    const count = selected.size;
    try {
      const { work_ids: ids } = await split.mutateAsync({ workId: work.id, articleIds: [...selected] });
      setConfirmSplit(false);
      onDone({ workId: ids[0] ?? work.id, newWorkId: ids[1], notice: text.t('splitDone', { count }) });
    } catch {
      // shown in the confirmation (split.error)
    }
  };

  return (
    <section
      className="card works-panel"
      aria-labelledby="work-title"
      data-testid="work-panel"
      data-work-id={work.id}
    >
      <h2 id="work-title">{work.title}</h2>
      <dl className="works-facts">
        <div>
          <dt>{text.t('workId')}</dt>
          <dd>
            <code data-testid="work-id">{work.id}</code>
          </dd>
        </div>
        {work.doi && (
          <div>
            <dt>{text.t('doi')}</dt>
            <dd>{work.doi}</dd>
          </div>
        )}
        {work.arxiv_id && (
          <div>
            <dt>{text.t('arxiv')}</dt>
            <dd>{work.arxiv_id}</dd>
          </div>
        )}
        {work.citation_count !== null && (
          <div>
            <dt>{text.t('citations')}</dt>
            <dd>{formatNumber(work.citation_count, locale)}</dd>
          </div>
        )}
        <div>
          <dt>{text.t('coverage')}</dt>
          <dd>{formatNumber(work.coverage_count, locale)}</dd>
        </div>
      </dl>

      <h3>{text.t('own')}</h3>
      <p className="muted">{text.t('splitHint')}</p>
      <VersionTable versions={own} selected={selected} onToggle={toggle} />
      <div className="works-split-bar">
        <span className="muted" role="status" data-testid="selected-count">
          {selected.size > 0 ? text.t('selected', { count: selected.size }) : ''}
        </span>
        {all && (
          <span className="form-error" data-testid="split-all">
            {text.t('splitAll')}
          </span>
        )}
        <button
          type="button"
          className="danger"
          disabled={selected.size === 0 || all}
          onClick={() => {
            split.reset();
            setConfirmSplit(true);
          }}
          data-testid="split"
        >
          {text.t('split')}
        </button>
      </div>

      {coverage.length > 0 && (
        <>
          <h3>{text.t('coverageList')}</h3>
          <VersionTable versions={coverage} />
        </>
      )}

      <MergeSection work={work} ownCount={own.length} onDone={onDone} />

      {confirmSplit && (
        <ConfirmDialog
          title={text.t('splitTitle', { count: selected.size })}
          confirmLabel={text.t('splitConfirm')}
          onConfirm={() => void doSplit()}
          onClose={() => {
            setConfirmSplit(false);
            // refused (the work changed meanwhile): show it as it is now
            if (split.isError) refresh(work.id);
          }}
          pending={split.isPending}
          danger
          error={split.isError ? errorMessage(split.error, t('common.error')) : null}
          testId="split-confirm"
        >
          <p>
            {text.t('splitBody', {
              count: selected.size,
              title: work.title,
              stay: text.t('versions', { count: own.length - selected.size }),
            })}
          </p>
          <ul className="works-moving">
            {own
              .filter((v) => selected.has(v.article_id))
              .map((v) => (
                <li key={v.article_id}>{v.title}</li>
              ))}
          </ul>
          <p>{text.t('splitKept')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function VersionTable({
  versions,
  selected,
  onToggle,
}: {
  versions: Version[];
  selected?: ReadonlySet<string>;
  onToggle?(id: string, on: boolean): void;
}) {
  const text = useT(worksAdminMessages);
  const { t, locale } = useI18n();
  return (
    <table className="works-table">
      <thead>
        <tr>
          {onToggle && (
            <th scope="col">
              <span className="visually-hidden">{text.t('colSelect')}</span>
            </th>
          )}
          <th scope="col">{text.t('colRole')}</th>
          <th scope="col">{text.t('colTitle')}</th>
          <th scope="col">{text.t('colSource')}</th>
          <th scope="col">{text.t('colDate')}</th>
        </tr>
      </thead>
      <tbody>
        {versions.map((v) => (
          <tr key={v.article_id} data-testid="work-version" data-role={v.role} data-article-id={v.article_id}>
            {onToggle && (
              <td className="works-select">
                <input
                  type="checkbox"
                  checked={selected?.has(v.article_id) ?? false}
                  onChange={(e) => onToggle(v.article_id, e.target.checked)}
                  aria-label={text.t('select', { title: v.title })}
                />
              </td>
            )}
            <td data-label={text.t('colRole')}>
              <span className={`work-role role-${v.role}`}>{t(`works.role.${v.role}`)}</span>
            </td>
            <td data-label={text.t('colTitle')} className="works-title-cell">
              <Link to={`/articles/${v.article_id}`}>{v.title}</Link>
            </td>
            <td data-label={text.t('colSource')}>{v.source}</td>
            <td data-label={text.t('colDate')}>
              {v.published_at ? formatDate(v.published_at, locale) : text.t('dateUnknown')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A second search whose results can be merged into this work (after a confirmation). */
function MergeSection({
  work,
  ownCount,
  onDone,
}: {
  work: Work;
  ownCount: number;
  onDone(outcome: Outcome): void;
}) {
  const text = useT(worksAdminMessages);
  const { t } = useI18n();
  const [find, setFind] = useState<{ id: string } | { q: string } | null>(null);
  const [other, setOther] = useState<FoundWork | null>(null);
  const merge = useMergeWorks();
  const refresh = useRefreshWork();
  const doMerge = async (o: FoundWork) => {
    try {
      const { work_id } = await merge.mutateAsync([work.id, o.id]);
      setOther(null);
      onDone({ workId: work_id, notice: text.t('mergeDone', { other: o.title }) });
    } catch {
      // shown in the confirmation (merge.error)
    }
  };
  return (
    <section className="works-merge" aria-labelledby="merge-title" data-testid="merge">
      <h3 id="merge-title">{text.t('merge')}</h3>
      <FindForm label={text.t('mergeFind')} hint={text.t('mergeHint')} onFind={setFind} testId="merge-find" />
      {find && (
        <FindResults
          find={find}
          action={(found) =>
            found.id === work.id ? (
              <span className="muted">{text.t('sameWork')}</span>
            ) : (
              <button
                type="button"
                onClick={() => {
                  merge.reset();
                  setOther(found);
                }}
                aria-label={text.t('mergeLabel', { title: found.title })}
                data-testid="merge-pick"
              >
                {text.t('mergeButton')}
              </button>
            )
          }
        />
      )}
      {other && (
        <ConfirmDialog
          title={text.t('mergeTitle')}
          confirmLabel={text.t('mergeConfirm')}
          onConfirm={() => void doMerge(other)}
          onClose={() => {
            setOther(null);
            if (merge.isError) refresh(work.id);
          }}
          pending={merge.isPending}
          error={merge.isError ? errorMessage(merge.error, t('common.error')) : null}
          testId="merge-confirm"
        >
          <p>
            {text.t('mergeBody', {
              other: other.title,
              otherVersions: text.t('versions', { count: other.versions }),
              title: work.title,
              versions: text.t('versions', { count: ownCount }),
              total: text.t('versions', { count: ownCount + other.versions }),
            })}
          </p>
          <p>{text.t('mergeKept')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

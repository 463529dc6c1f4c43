import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useT } from '../../../lib/i18n';
import { ErrorState, Loading } from '../../../lib/ui';
import { useWork } from '../api/works';
import { worksAdminMessages } from '../messages';
import { FindForm, FindResults } from './work-finder';
import { WorkPanel, type Outcome } from './work-panel';
import '../works.css';

/**
 * The admin Works page (issue 28): find a work by an article's title or an id, see its versions,
 * split some off or merge another work in. The work and the search are in the address
 * (`?work=<id>&q=<words>`), so the reader's versions dialog links here and a reload shows the same.
 */
export default function WorksAdminPage() {
  const text = useT(worksAdminMessages);
  const [params, setParams] = useSearchParams();
  const workId = params.get('work');
  const q = params.get('q');
  const work = useWork(workId);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const show = (next: { work?: string | null; q?: string | null }) => {
    const p = new URLSearchParams();
    const w = next.work === undefined ? workId : next.work;
    const words = next.q === undefined ? q : next.q;
    if (words) p.set('q', words);
    if (w) p.set('work', w);
    setParams(p);
  };

  return (
    <section className="works-page">
      <h1>{text.t('title')}</h1>
      <p className="works-lead">{text.t('lead')}</p>
      <FindForm
        label={text.t('find')}
        hint={text.t('findHint')}
        initial={q ?? ''}
        onFind={(found) => {
          setOutcome(null);
          // an id opens its work at once: the results of an earlier search go
          show('id' in found ? { work: found.id, q: null } : { q: found.q });
        }}
        testId="work-find"
      />
      {q && (
        <FindResults
          find={{ q }}
          action={(found) =>
            found.id === workId ? (
              <span className="muted">{text.t('current')}</span>
            ) : (
              <button
                type="button"
                onClick={() => {
                  setOutcome(null);
                  show({ work: found.id });
                }}
                aria-label={text.t('openLabel', { title: found.title })}
                data-testid="open-work"
              >
                {text.t('open')}
              </button>
            )
          }
        />
      )}
      {outcome && (
        <div className="saved works-outcome" role="status" data-testid="work-outcome">
          <p>{outcome.notice}</p>
          {outcome.newWorkId && (
            <button
              type="button"
              onClick={() => {
                setOutcome(null);
                show({ work: outcome.newWorkId });
              }}
              data-testid="open-new-work"
            >
              {text.t('openNew')}
            </button>
          )}
        </div>
      )}
      {!workId ? (
        !q && <p className="muted">{text.t('none')}</p>
      ) : work.isPending ? (
        <Loading />
      ) : work.isError ? (
        <ErrorState error={work.error} />
      ) : (
        <WorkPanel
          key={work.data.id + work.data.versions.length}
          work={work.data}
          onDone={(o) => {
            setOutcome(o);
            show({ work: o.workId });
          }}
        />
      )}
    </section>
  );
}

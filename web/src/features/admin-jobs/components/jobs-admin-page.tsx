import { useSearchParams } from 'react-router';
import { useActiveRuns } from '../api/jobs';
import { useT } from '../../../lib/i18n';
import { jobsMessages } from '../messages';
import { ActiveRuns } from './active-runs';
import { RunDetail } from './run-detail';
import { RunHistory } from './run-history';
import { StartJobs } from './start-jobs';
import '../jobs.css';

/**
 * The Jobs page: start a job, follow the runs under way, browse the history of runs and open one
 * to see what failed. Runs are records on the server: leaving the page loses nothing, and the
 * open run is in the address (`?run=<id>`).
 */
export default function JobsAdminPage() {
  const { t } = useT(jobsMessages);
  const [params, setParams] = useSearchParams();
  const selected = params.get('run');
  const active = useActiveRuns();
  const open = (id: string) => setParams({ run: id });
  const busy = new Set((active.data ?? []).map((r) => r.kind));
  return (
    <section className="jobs-page">
      <h1>{t('jobs.title')}</h1>
      <StartJobs busy={busy} onStarted={() => void active.refetch()} />
      <ActiveRuns runs={active.data ?? []} onOpen={open} />
      {selected && <RunDetail id={selected} onClose={() => setParams({})} />}
      <RunHistory onOpen={open} selected={selected} />
    </section>
  );
}

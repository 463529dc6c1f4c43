import { WorkLinkJobs, WORK_ARRIVALS_CRON, WORK_ARRIVALS_JOB } from '../application/works/work-link-jobs.js';
import { WorkLinker } from '../application/works/work-linker.service.js';
import { WorksService } from '../application/works/works.service.js';
import { DrizzleWorkStore } from '../infrastructure/db/repositories/work.repository.js';
import { scheduledJob } from '../jobs/scheduler.js';
import type { AreaWiring, WiringContext } from './context.js';

/**
 * Works (docs/decisions/0125-works.md): the linker as durable `work.link` jobs (queued by a tick
 * every minute for what arrived, and by the citation sources for new identifier links), GET
 * /works/{id} and the admin's split and merge. Returns `linkJobs` (its `onLinks` is the citation
 * sources' link sink; `linkArticles` of `linker` is the one call the pipeline may make).
 */
export const wireWorks = (
  ctx: WiringContext,
): AreaWiring<'works' | 'workLinker'> & { linker: WorkLinker; linkJobs: WorkLinkJobs } => {
  const store = new DrizzleWorkStore(ctx.db);
  const logger = ctx.logger.child({ area: 'works' });
  const linker = new WorkLinker(store, ctx.clock, logger);
  const linkJobs = new WorkLinkJobs({ queue: ctx.queue, linker, logger });
  return {
    linker,
    linkJobs,
    services: { works: new WorksService(store, store), workLinker: linker },
    jobs: [
      scheduledJob({
        name: WORK_ARRIVALS_JOB,
        cron: WORK_ARRIVALS_CRON,
        run: () => linkJobs.queueArrivals(),
        idle: (r) => r.queued === 0,
      }),
    ],
    workers: [
      {
        name: 'work-link',
        start: () =>
          void linkJobs
            .start()
            .catch((err: unknown) => logger.error({ event: 'works.jobs.start_failed', err })),
        ready: () => linkJobs.start(),
        // the queue itself is stopped by the pipeline's drain and the container
        stop: async () => undefined,
      },
    ],
  };
};

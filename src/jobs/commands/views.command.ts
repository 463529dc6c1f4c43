import type { Command } from './command.js';
import { answerError } from './service-run.js';

export const viewCommands: Record<string, Command> = {
  'flush-views': {
    whileServiceRuns:
      'the service flushes view counts itself; POST /admin/articles/flush-view-counts does it now',
    summary: 'Move the cached view counters into the stored view counts now',
    usage: 'flush-views',
    options: {},
    async run(c) {
      const started = Date.now();
      const { articles, views } = await c.services.views.flush();
      console.log(`flushed ${views} views into ${articles} articles in ${Date.now() - started} ms`);
      return 0;
    },
    async viaService(api) {
      const started = Date.now();
      const answer = await api.call<{ articles: number; views: number }>(
        'POST',
        '/admin/articles/flush-view-counts',
      );
      if (!answer.ok) return answerError('flush-views', answer);
      const { articles, views } = answer.body;
      console.log(
        `flushed ${views} views into ${articles} articles in ${Date.now() - started} ms (in the running service, pid ${api.pid})`,
      );
      return 0;
    },
  },
};

import type { Command } from './command.js';

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
  },
};

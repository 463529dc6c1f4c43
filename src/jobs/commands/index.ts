import type { Command } from './command.js';
import { userCommands } from './users.command.js';
import { viewCommands } from './views.command.js';
import { reportCommands } from './reports.command.js';
import { scrapeCommands } from './scrape.command.js';
import { metricCommands } from './metrics.command.js';
import { workCommands } from './works.command.js';

/** Every CLI command; each area adds its `<area>.command.ts` here. */
export const commands: Record<string, Command> = {
  ...userCommands,
  ...viewCommands,
  ...reportCommands,
  ...scrapeCommands,
  ...metricCommands,
  ...workCommands,
};

import type { Command } from './command.js';
import { userCommands } from './users.command.js';

/** Every CLI command; each area adds its `<area>.command.ts` here. */
export const commands: Record<string, Command> = {
  ...userCommands,
};

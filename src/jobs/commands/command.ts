import type { parseArgs } from 'node:util';
import type { Container } from '../../composition/container.js';

export interface Command {
  summary: string;
  usage: string;
  options: NonNullable<Parameters<typeof parseArgs>[0]>['options'];
  /** what to do instead while a service holds the embedded database (exit 2) */
  whileServiceRuns?: string;
  /** returns the process exit code */
  run(container: Container, values: Record<string, string | boolean | undefined>): Promise<number>;
}

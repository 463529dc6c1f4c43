import type { parseArgs } from 'node:util';
import type { Container } from '../../composition/container.js';

/** what a call of the running service answers: the body of a 2xx, or the API's error */
export type ServiceAnswer<T> =
  | { ok: true; status: number; body: T }
  | {
      ok: false;
      status: number;
      code: string;
      message: string;
      details?: { path?: string; message: string }[];
    };

/** The admin API of the service that runs on this DATA_DIR (the local admin channel). */
export interface ServiceApi {
  /** the service's process id */
  readonly pid: number;
  call<T>(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<ServiceAnswer<T>>;
}

export interface Command {
  summary: string;
  usage: string;
  options: NonNullable<Parameters<typeof parseArgs>[0]>['options'];
  /** what to do instead while a service holds the embedded database and cannot be reached (exit 2) */
  whileServiceRuns?: string;
  /** returns the process exit code */
  run(container: Container, values: Record<string, string | boolean | undefined>): Promise<number>;
  /**
   * The same through the running service, when it holds the embedded database (PGlite allows one
   * process per data directory): the command calls its admin API instead of opening the database.
   */
  viaService?(api: ServiceApi, values: Record<string, string | boolean | undefined>): Promise<number>;
}

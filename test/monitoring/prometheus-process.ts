import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** Debian's Prometheus (apt-get install prometheus; .ci/run installs it). */
export const PROMETHEUS = '/usr/bin/prometheus';
export const prometheusAvailable = () => existsSync(PROMETHEUS) || Boolean(process.env.CI);

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls `fn` until it gives a value (errors count as "not yet"). */
export async function until<T>(fn: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`timed out: ${what}`);
}

export interface PrometheusOptions {
  /** the directory holding prometheus.yml (and web.yml when `webConfig`); storage goes under it */
  dir: string;
  port: number;
  webConfig?: boolean;
  /** e.g. '/prom': started with --web.external-url and --web.route-prefix */
  routePrefix?: string;
  /** the Authorization header for the readiness probe */
  authorization?: string;
}

/**
 * One Prometheus process from the real binary with its own config and storage under `dir`, stopped
 * and started again at will (the outage tests). Only the process it started is ever signalled.
 */
export class PrometheusProcess {
  private child: ChildProcess | undefined;
  log = '';
  constructor(private readonly o: PrometheusOptions) {}

  get url(): string {
    return `http://127.0.0.1:${this.o.port}${this.o.routePrefix ?? ''}`;
  }

  async start(): Promise<void> {
    const { dir, port, routePrefix } = this.o;
    const args = [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      ...(this.o.webConfig ? [`--web.config.file=${join(dir, 'web.yml')}`] : []),
      ...(routePrefix
        ? [`--web.external-url=http://127.0.0.1:${port}${routePrefix}/`, `--web.route-prefix=${routePrefix}`]
        : []),
    ];
    const child = spawn(PROMETHEUS, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    child.stderr!.on('data', (c: Buffer) => (this.log = (this.log + c.toString()).slice(-4000)));
    const headers: Record<string, string> = this.o.authorization
      ? { authorization: this.o.authorization }
      : {};
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`Prometheus exited: ${this.log}`);
        const r = await fetch(`${this.url}/-/ready`, { headers });
        return r.ok ? true : undefined;
      },
      30_000,
      `Prometheus ready (${this.log})`,
    );
  }

  async stop(): Promise<void> {
    const p = this.child;
    this.child = undefined;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((resolve) => p.once('exit', resolve));
    p.kill('SIGTERM');
    await exited;
  }
}

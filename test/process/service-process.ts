import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** A service process as `node dist/main.js <role>` runs it (here through tsx), with its JSON log lines. */
export interface ServiceProcess {
  child: ChildProcessWithoutNullStreams;
  lines: Record<string, unknown>[];
  exited: Promise<number | null>;
  waitFor(event: string, timeoutMs: number): Promise<Record<string, unknown>>;
  stderr(): string;
}

const children = new Set<ChildProcessWithoutNullStreams>();

/** a failed test must not leave a service running */
export function killAll(): void {
  for (const c of children) c.kill('SIGKILL');
}

export function startService(role: string, env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', role], {
    env: { ...process.env, LOG_LEVEL: 'info', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as unknown as ChildProcessWithoutNullStreams;
  children.add(child);
  child.on('exit', () => children.delete(child));
  const lines: Record<string, unknown>[] = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let i;
    while ((i = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        /* not a log line */
      }
    }
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = async (event: string, timeoutMs: number) => {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const hit = lines.find((l) => l.event === event);
      if (hit) return hit;
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`exited early (${child.exitCode ?? child.signalCode}): ${stderr.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no ${event} within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`);
  };
  return { child, lines, exited, waitFor, stderr: () => stderr };
}

/** polls until `ok()` answers true, failing after timeoutMs */
export async function until(ok: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** signs in the ADMIN_EMAIL admin and creates a topic, one RSS source and an active text provider */
export async function seedThroughApi(
  apiUrl: string,
  admin: { email: string; password: string },
  feedUrl: string,
  llmBaseUrl: string,
): Promise<{ authorization: string }> {
  const call = async (method: string, path: string, body?: unknown, auth?: string) => {
    const r = await fetch(`${apiUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const login = await call('POST', '/auth/login', admin);
  const authorization = `Bearer ${String(login.access_token)}`;
  const topic = await call('POST', '/admin/topics', { name: 'Crash topic' }, authorization);
  await call(
    'POST',
    '/admin/sources',
    { topic_id: topic.id, name: 'Feed', kind: 'rss', url: feedUrl },
    authorization,
  );
  await call(
    'POST',
    '/admin/providers',
    { name: 'peer', type: 'text', base_url: llmBaseUrl, model: 'm', is_active: true },
    authorization,
  );
  return { authorization };
}

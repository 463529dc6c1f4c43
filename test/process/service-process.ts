import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { assertDistCompiled, startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';

export type { ServiceProcess };

const children = new Set<ChildProcessWithoutNullStreams>();

/** a failed test must not leave a service running */
export function killAll(): void {
  for (const c of children) c.kill('SIGKILL');
}

/**
 * A service process as `npm start` runs it: `node dist/main.js <role>`, from the run's compile (the
 * file's `beforeAll(compileDist)`). A start costs ~1.85 s of CPU there against ~2.5 through tsx.
 */
export function startService(role: string, env: Record<string, string>): ServiceProcess {
  assertDistCompiled();
  return startServiceProcess(['dist/main.js', role], { NODE_ENV: 'test', ...env }, children);
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

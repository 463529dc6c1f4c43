import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

export interface RunBody {
  id: string;
  kind: string;
  status: string;
  trigger: string;
  started_at: string;
  finished_at: string | null;
  progress: { done: number; total: number };
  summary: Record<string, string | number | null>;
  error: string | null;
  error_count: number;
  errors: {
    source_id?: string;
    article_id?: string;
    article_title?: string;
    topic_id?: string;
    message: string;
  }[];
}

/** Polls GET /admin/runs/{id} until the run is no longer queued or running. */
export async function waitForRun(
  app: FastifyInstance,
  headers: Record<string, string>,
  runId: string,
  timeoutMs = 60_000,
): Promise<RunBody> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.inject({ url: `/admin/runs/${runId}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    const run = res.json() as RunBody;
    if (run.status !== 'queued' && run.status !== 'running') return run;
    if (Date.now() > until) throw new Error(`run ${runId} still ${run.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** POST a job endpoint, expect 202 {run_id}, and wait for the run to end. */
export async function startAndWait(
  app: FastifyInstance,
  headers: Record<string, string>,
  url: string,
  payload: Record<string, unknown> = {},
): Promise<RunBody> {
  const res = await app.inject({ method: 'POST', url, headers, payload });
  expect(res.statusCode, res.body).toBe(202);
  return waitForRun(app, headers, (res.json() as { run_id: string }).run_id);
}

/** what the report tests read of a weekly run: the use case's per-topic answer, as a response */
export interface JobAnswer {
  statusCode: number;
  body: string;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * The weekly report job for tests that check each topic's outcome (status, deliveries): a request
 * the endpoint refuses (422, 404, 409) is sent to it and its answer returned, since a refusal starts
 * no run; otherwise the use case runs to its end and its per-topic summary is answered with 200.
 * The endpoint's 202 and the run record are covered in test/runs/runs.test.ts.
 */
export async function weeklyJob(
  app: FastifyInstance,
  batch: { weeklyReports: { check(o: object): Promise<void>; run(o: object): Promise<unknown> } },
  headers: Record<string, string>,
  body: Record<string, string> = {},
): Promise<JobAnswer> {
  const opts = { topicId: body.topic_id, weekStart: body.week_start };
  const refused = await batch.weeklyReports.check(opts).then(
    () => false,
    () => true,
  );
  if (refused) {
    const res = await app.inject({
      method: 'POST',
      url: '/admin/jobs/weekly-reports',
      headers,
      payload: body,
    });
    return { statusCode: res.statusCode, body: res.body, json: () => res.json() as unknown };
  }
  const summary = await batch.weeklyReports.run(opts);
  return { statusCode: 200, body: JSON.stringify(summary), json: () => summary };
}

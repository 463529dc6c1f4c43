import type { FastifyInstance } from 'fastify';
import { request } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface AskAnswerJson {
  answer: string;
  language: 'en' | 'zh-TW';
  abstained: boolean;
  method: 'model' | 'extractive';
  citations: { n: number; article_id: string; title: string; url: string; quote: string }[];
  grounding: {
    score: number;
    method: string;
    sentences: {
      text: string;
      citations: number[];
      support: string;
      evidence: { n: number; quote: string }[];
    }[];
    removed: { text: string; reason: string }[];
  };
}

export async function ask(
  app: FastifyInstance,
  headers: Record<string, string>,
  body: Record<string, unknown>,
): Promise<{
  status: number;
  json: AskAnswerJson & { error?: { code: string } };
  headers: Record<string, unknown>;
}> {
  const res = await app.inject({ method: 'POST', url: '/ask', headers, payload: body });
  return { status: res.statusCode, json: res.json(), headers: res.headers };
}

/** POST /ask over a real connection with Accept: text/event-stream, read with an EventSource parser. */
export function askStream(
  base: string,
  headers: Record<string, string>,
  body: Record<string, unknown>,
  opts: { closeAfter?: (event: EventSourceMessage) => boolean } = {},
): Promise<{ status: number; contentType: string; events: EventSourceMessage[]; closedByUs: boolean }> {
  return new Promise((resolve, reject) => {
    const events: EventSourceMessage[] = [];
    const payload = JSON.stringify(body);
    const req = request(
      `${base}/ask`,
      {
        method: 'POST',
        headers: {
          ...headers,
          accept: 'text/event-stream',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let closedByUs = false;
        const parser = createParser({
          onEvent: (e) => {
            events.push(e);
            if (opts.closeAfter?.(e) && !closedByUs) {
              closedByUs = true;
              req.destroy();
              resolve({
                status: res.statusCode ?? 0,
                contentType: String(res.headers['content-type']),
                events,
                closedByUs,
              });
            }
          },
        });
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => parser.feed(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type']),
            events,
            closedByUs,
          }),
        );
        res.on('error', (err) => (closedByUs ? undefined : reject(err)));
      },
    );
    req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    req.end(payload);
  });
}

export async function addTextProvider(
  app: FastifyInstance,
  headers: Record<string, string>,
  baseUrl: string,
) {
  const p = await app.inject({
    method: 'POST',
    url: '/admin/providers',
    headers,
    payload: { name: 'answers', type: 'text', base_url: baseUrl, model: 'm', is_active: true },
  });
  if (p.statusCode !== 201) throw new Error(`provider: ${p.body}`);
  return p.json<{ id: string }>().id;
}

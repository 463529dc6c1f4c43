import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, reportUnauthorized, toError } from '../../../lib/api-client';
import type { ApiBody, ApiResponse } from '../../../lib/api-types';
import { SseParser } from './sse';

export type AskAnswer = ApiResponse<'/ask', 'post'>;
export type AskBody = ApiBody<'/ask'>;
export type Citation = AskAnswer['citations'][number];
export type AskHistoryPage = ApiResponse<'/ask/history'>;
export type AskHistoryItem = AskHistoryPage['items'][number];
/** a passage the answer is written from, numbered as the streamed pieces cite it */
export interface RetrievedPassage {
  n: number;
  article_id: string;
  title: string;
  url: string;
}

/** A refused or failed question; `retryAfter` (seconds) comes with a 429. */
export class AskError extends ApiError {
  constructor(
    error: ApiError,
    readonly retryAfter?: number,
  ) {
    super(error.status, error.code, error.message, error.correlationId, error.details);
  }
}

export interface AskProgress {
  retrieved?(passages: RetrievedPassage[]): void;
  /** the answer so far, as the model writes it (sentences that passed the server's first check) */
  delta?(text: string): void;
}

/** what the streamed pieces may add up to before we stop showing more (the final answer still comes) */
const MAX_DRAFT = 20_000;

/**
 * POST /ask as server-sent events: `retrieved`, `delta`…, then `answer` (kept) or `error` (thrown).
 * A refused question is an ordinary JSON error (thrown as AskError); `signal` aborts the request,
 * which ends the server's work. Every event is checked before use: the stream is outside input.
 */
export async function askStream(
  body: AskBody,
  progress: AskProgress,
  signal: AbortSignal,
): Promise<AskAnswer> {
  let res: Response;
  try {
    res = await fetch('/api/proxy/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new AskError(new ApiError(0, 'network_error', 'The server could not be reached.'));
  }
  if (!res.ok) {
    const error = await toError(res);
    if (res.status === 401) reportUnauthorized();
    const retry = Number(res.headers.get('retry-after'));
    throw new AskError(error, Number.isFinite(retry) && retry > 0 ? Math.ceil(retry) : undefined);
  }
  // an answer without streaming (a proxy that asked for JSON) is taken as it is
  if (!/text\/event-stream/i.test(res.headers.get('content-type') ?? '')) {
    const json: unknown = await res.json().catch(() => null);
    return checkAnswer(json);
  }
  if (!res.body) throw badStream();

  let result: AskAnswer | null = null;
  let failure: AskError | null = null;
  let draft = '';
  const parser = new SseParser(({ event, data }) => {
    if (result || failure) return;
    const json = parseJson(data);
    if (event === 'retrieved') progress.retrieved?.(checkPassages(json));
    else if (event === 'delta') {
      const text = (json as { text?: unknown } | null)?.text;
      if (typeof text === 'string' && draft.length < MAX_DRAFT) {
        // each piece carries its own trailing space or line end
        draft += text.slice(0, MAX_DRAFT - draft.length);
        progress.delta?.(draft);
      }
    } else if (event === 'answer') result = checkAnswer(json);
    else if (event === 'error') {
      const e = json as { code?: unknown; message?: unknown } | null;
      failure = new AskError(
        new ApiError(
          502,
          typeof e?.code === 'string' ? e.code : 'answer_failed',
          typeof e?.message === 'string' ? e.message : 'the answer could not be written',
        ),
      );
    }
  });
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(value);
      if (result || failure) break;
    }
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new AskError(new ApiError(0, 'network_error', 'The connection was lost.'));
  } finally {
    parser.end();
    // the answer is complete (or the page left): the rest of the stream is not needed
    void reader.cancel().catch(() => {});
  }
  if (failure) throw failure;
  if (!result) throw new AskError(new ApiError(0, 'network_error', 'The connection was lost.'));
  return result;
}

function badStream() {
  return new AskError(new ApiError(502, 'http_error', 'The server sent an answer that could not be read.'));
}

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw badStream();
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isStr = (v: unknown): v is string => typeof v === 'string';
const isInt = (v: unknown): v is number => Number.isInteger(v);

function checkPassages(json: unknown): RetrievedPassage[] {
  const list = isObj(json) ? json.passages : null;
  if (!Array.isArray(list)) throw badStream();
  return list.filter(
    (p): p is RetrievedPassage =>
      isObj(p) && isInt(p.n) && isStr(p.article_id) && isStr(p.title) && isStr(p.url),
  );
}

function checkAnswer(json: unknown): AskAnswer {
  if (
    !isObj(json) ||
    !isStr(json.answer) ||
    typeof json.abstained !== 'boolean' ||
    (json.method !== 'model' && json.method !== 'extractive') ||
    !Array.isArray(json.citations) ||
    !isObj(json.grounding)
  )
    throw badStream();
  const citations = json.citations.filter(
    (c): c is Citation =>
      isObj(c) && isInt(c.n) && isStr(c.article_id) && isStr(c.title) && isStr(c.url) && isStr(c.quote),
  );
  const g = json.grounding;
  const sentences = Array.isArray(g.sentences) ? g.sentences : [];
  return {
    ...(json as AskAnswer),
    citations,
    grounding: {
      ...(g as AskAnswer['grounding']),
      score: typeof g.score === 'number' && g.score >= 0 && g.score <= 1 ? g.score : 0,
      sentences: sentences as AskAnswer['grounding']['sentences'],
      removed: Array.isArray(g.removed) ? (g.removed as AskAnswer['grounding']['removed']) : [],
    },
  };
}

/** An http(s) address to link to; anything else (javascript:, data:) is not a link. */
export function safeUrl(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

export const historyKey = ['ask', 'history'] as const;

/** The reader's own questions and answers, newest first. */
export function useAskHistory() {
  return useQuery({
    queryKey: historyKey,
    queryFn: ({ signal }) => api<AskHistoryPage>('/ask/history', { signal, query: { limit: 50 } }),
  });
}

export function useClearHistory(onCleared: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>('/ask/history', { method: 'DELETE' }),
    onSuccess: () => {
      qc.setQueryData<AskHistoryPage>(historyKey, (old) => (old ? { ...old, items: [], total: 0 } : old));
      onCleared();
      void qc.invalidateQueries({ queryKey: historyKey });
    },
  });
}

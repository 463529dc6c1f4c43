import type { ServerResponse } from 'node:http';
import { HttpPeer, sendJson, type RecordedRequest } from './http-peer.js';

export interface ChatCall {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: {
    type: string;
    json_schema?: { name: string; schema: Record<string, unknown>; strict?: boolean };
  };
  /** a streamed call (server-sent chunks) */
  stream?: boolean;
}

/** What the fake model answers: a string (the message content) or an HTTP error. */
export type ChatReply = string | { status: number; body?: unknown };

/**
 * An OpenAI-compatible server on loopback: /v1/chat/completions and /v1/images/generations.
 * Tests pass the answer for each call; every call is recorded.
 */
export class OpenAiPeer {
  readonly peer: HttpPeer;
  chatCalls: ChatCall[] = [];
  imageCalls: { model: string; prompt: string; size?: string }[] = [];
  /** pause between the chunks of a streamed answer */
  chunkDelayMs = 0;
  /** streamed answers whose client closed the connection before the last chunk */
  streamsCutShort = 0;
  /** how long each chat call takes to answer, as a real model's latency */
  latencyMs = 0;
  /**
   * A provider's rate limit: a chat call that arrives while this many are being answered is
   * refused with 429 and `Retry-After: retryAfterSeconds`.
   */
  maxConcurrent = Infinity;
  retryAfterSeconds = 1;
  /** chat calls being answered now, the most at once so far, and the calls refused with 429 */
  inFlight = 0;
  maxInFlight = 0;
  rateLimited = 0;
  /** the token counts an answer reports (`usage`); a fixed 10 in and 5 out unless set */
  usageOf: (call: ChatCall, reply: string) => { prompt_tokens: number; completion_tokens: number } = () => ({
    prompt_tokens: 10,
    completion_tokens: 5,
  });

  constructor(
    public chat: (call: ChatCall, req: RecordedRequest) => ChatReply | Promise<ChatReply> = () => 'ok',
    public image: () => Buffer | { status: number } = () => TINY_PNG,
  ) {
    this.peer = new HttpPeer(async (req, res) => {
      if (req.method === 'POST' && req.path.endsWith('/chat/completions')) {
        const call = req.json() as ChatCall;
        if (this.inFlight >= this.maxConcurrent) {
          this.rateLimited++;
          return sendJson(
            res,
            429,
            { error: { message: 'Rate limit reached: too many concurrent requests', type: 'requests' } },
            { 'retry-after': String(this.retryAfterSeconds) },
          );
        }
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        try {
          if (this.latencyMs) await new Promise((r) => setTimeout(r, this.latencyMs));
        } finally {
          this.inFlight--;
        }
        this.chatCalls.push(call);
        const reply = await this.chat(call, req);
        if (typeof reply !== 'string')
          return sendJson(res, reply.status, reply.body ?? { error: { message: 'fail' } });
        if (call.stream) return this.stream(res, call, reply);
        return sendJson(res, 200, {
          id: `chatcmpl-${this.chatCalls.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: call.model,
          choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
          usage: this.usage(call, reply),
        });
      }
      if (req.method === 'POST' && req.path.endsWith('/images/generations')) {
        const call = req.json() as { model: string; prompt: string; size?: string };
        this.imageCalls.push(call);
        const out = this.image();
        if (!Buffer.isBuffer(out)) return sendJson(res, out.status, { error: { message: 'image failed' } });
        return sendJson(res, 200, { created: 1, data: [{ b64_json: out.toString('base64') }] });
      }
      sendJson(res, 404, { error: { message: `no route ${req.method} ${req.path}` } });
    });
  }

  /** the answer as OpenAI streams it: content chunks, a stop chunk, a usage chunk, [DONE] */
  private async stream(res: ServerResponse, call: ChatCall, reply: string): Promise<void> {
    let closed = false;
    res.on('close', () => {
      if (!res.writableEnded) {
        closed = true;
        this.streamsCutShort++;
      }
    });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const base = {
      id: `chatcmpl-${this.chatCalls.length}`,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: call.model,
    };
    const write = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    const pieces = reply.match(/[\s\S]{1,12}/g) ?? [];
    for (const piece of pieces) {
      if (closed) return;
      write({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
      if (this.chunkDelayMs) await new Promise((r) => setTimeout(r, this.chunkDelayMs));
    }
    if (closed) return;
    write({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    write({ ...base, choices: [], usage: this.usage(call, reply) });
    res.end('data: [DONE]\n\n');
  }

  private usage(call: ChatCall, reply: string) {
    const u = this.usageOf(call, reply);
    return { ...u, total_tokens: u.prompt_tokens + u.completion_tokens };
  }

  get baseUrl(): string {
    return `${this.peer.url}/v1`;
  }

  async start(): Promise<this> {
    await this.peer.start();
    return this;
  }

  stop(): Promise<void> {
    return this.peer.stop();
  }
}

/** A valid 16x9 PNG (solid colour), as an image model would return. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAJCAIAAAC0SDtlAAAAEklEQVR4nGNgoD1gHNUwqoEaAAAi5wAJ0A7xWQAAAABJRU5ErkJggg==',
  'base64',
);

/*
 * A deterministic judge and reviser of citations, answering from the text it is given as a careful
 * model would: a claim is supported by a source when every figure and every word of four letters or
 * more occurs in it and it negates nothing the source does not (a few missing words: partial); the
 * quote is the source sentence sharing most words with the claim. A revision keeps the evidence
 * sentence the claim is about, its figures put right; nothing is written when no evidence sentence
 * shares at least half of the claim's words.
 */

/** The structured-output schema a chat call asks for, if any (json_schema name). */
export const schemaOf = (call: ChatCall): string | undefined => call.response_format?.json_schema?.name;

const STOPWORDS = new Set(['this', 'that', 'with', 'from', 'were', 'been', 'have', 'their', 'week', 'into']);
const NEGATIONS = ['no', 'not', 'never', 'none', 'without'];
const wordsOf = (s: string) =>
  [...new Set(s.toLowerCase().match(/\p{L}{4,}/gu) ?? [])].filter((w) => !STOPWORDS.has(w));
const numbersOf = (s: string): string[] => s.match(/\d+(?:\.\d+)?/g) ?? [];
const sentencesOf = (s: string) =>
  s
    .split(/\s+…\s+|(?<=[.!?])\s+/)
    .map((x) => x.trim())
    .filter(Boolean);

export interface JudgePayload {
  sources: { n: number; text: string }[];
  claims: { id: number; text: string; cited: number[] }[];
}
export interface RevisionPayload {
  claims: { id: number; text: string; evidence: { n: number; text: string }[] }[];
}

function verdict(claim: string, source: string): 'supported' | 'partial' | 'unsupported' {
  const lower = source.toLowerCase();
  const claimWords = claim.toLowerCase().split(/[^\p{L}]+/u);
  const sourceWords = new Set(lower.split(/[^\p{L}]+/u));
  if (NEGATIONS.some((w) => claimWords.includes(w) && !sourceWords.has(w))) return 'unsupported';
  const nums = new Set(numbersOf(source));
  if (numbersOf(claim).some((n) => !nums.has(n))) return 'unsupported';
  const words = wordsOf(claim);
  const missing = words.filter((w) => !lower.includes(w)).length;
  if (missing === 0) return 'supported';
  return missing / words.length <= 0.3 ? 'partial' : 'unsupported';
}

function bestSentence(claim: string, text: string): { sentence: string; shared: number } {
  const words = wordsOf(claim);
  let best = { sentence: '', shared: -1 };
  for (const sentence of sentencesOf(text)) {
    const lower = sentence.toLowerCase();
    const shared = words.filter((w) => lower.includes(w)).length;
    if (shared > best.shared) best = { sentence, shared };
  }
  return best;
}

/** The judgements of a `citation_judgements` call. */
export function judgeFromText(payload: JudgePayload) {
  const text = (n: number) => payload.sources.find((s) => s.n === n)?.text ?? '';
  return payload.claims.map((c) => {
    const cited = c.cited.map(text).join(' ');
    let support = verdict(c.text, cited);
    let from = cited;
    let better: number | null = null;
    if (support === 'unsupported')
      for (const s of payload.sources) {
        if (c.cited.includes(s.n)) continue;
        const v = verdict(c.text, s.text);
        if (v !== 'unsupported') {
          [support, from, better] = [v, s.text, s.n];
          break;
        }
      }
    return {
      id: c.id,
      support,
      quote: support === 'unsupported' ? '' : bestSentence(c.text, from).sentence,
      better_source: better,
    };
  });
}

/** The revisions of a `citation_revisions` call. */
export function reviseFromText(payload: RevisionPayload) {
  return payload.claims.map((c) => {
    const { sentence, shared } = bestSentence(c.text, c.evidence.map((e) => e.text).join(' … '));
    if (!sentence || shared * 2 < wordsOf(c.text).length) return { id: c.id, text: '' };
    const right = numbersOf(sentence).filter((n) => !numbersOf(c.text).includes(n));
    const wrong = numbersOf(c.text).filter((n) => !numbersOf(sentence).includes(n));
    if (!wrong.length) return { id: c.id, text: sentence };
    let fixed = c.text;
    wrong.forEach((n, i) => {
      if (right[i]) fixed = fixed.replace(new RegExp(`\\b${n}\\b`), right[i]!);
    });
    return { id: c.id, text: fixed };
  });
}

/** The answer to a judge or revision call, or null when the call is neither. */
export function groundingReply(call: ChatCall): string | null {
  const user = call.messages.find((m) => m.role === 'user')?.content ?? '{}';
  switch (schemaOf(call)) {
    case 'citation_judgements':
      return JSON.stringify({ judgements: judgeFromText(JSON.parse(user) as JudgePayload) });
    case 'citation_revisions':
      return JSON.stringify({ revisions: reviseFromText(JSON.parse(user) as RevisionPayload) });
    default:
      return null;
  }
}

/**
 * The OpenAI-compatible peer in its own process, so that it does not share the measured one's CPU.
 * Zero latency by default; LLM_PEER_LATENCY_MS, LLM_PEER_MAX_CONCURRENT and LLM_PEER_RETRY_AFTER_S
 * make it a model with a latency and a rate limit (429 with Retry-After past that many at once).
 * The message `count` answers the calls answered and refused so far, and the tokens reported.
 */
import { OpenAiPeer } from '../../test/peers/openai-peer.js';
import { modelReply } from '../support/feed-items.js';

const peer = await new OpenAiPeer((call) => modelReply(call)).start();
const env = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
peer.latencyMs = env('LLM_PEER_LATENCY_MS') ?? 0;
peer.maxConcurrent = env('LLM_PEER_MAX_CONCURRENT') ?? Infinity;
peer.retryAfterSeconds = env('LLM_PEER_RETRY_AFTER_S') ?? 1;
// tokens as a provider counts them, estimated at ~4 UTF-8 bytes a token (the rule of thumb for
// English with OpenAI's tokenizers) over the messages and the answer; the totals are kept to check
// the service's own accounting against
const tokens = (text: string) => Math.ceil(Buffer.byteLength(text) / 4);
const used = { promptTokens: 0, completionTokens: 0 };
peer.usageOf = (call, reply) => {
  const u = {
    prompt_tokens: call.messages.reduce((n, m) => n + tokens(m.content), 0),
    completion_tokens: tokens(reply),
  };
  used.promptTokens += u.prompt_tokens;
  used.completionTokens += u.completion_tokens;
  return u;
};
process.send?.({ baseUrl: peer.baseUrl });
process.on('message', (m) => {
  if (m === 'count')
    process.send?.({
      calls: peer.chatCalls.length,
      rateLimited: peer.rateLimited,
      maxInFlight: peer.maxInFlight,
      ...used,
    });
});
process.on('disconnect', () => void peer.stop().then(() => process.exit(0)));

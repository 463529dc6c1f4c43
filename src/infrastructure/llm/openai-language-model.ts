import type OpenAI from 'openai';
import type {
  Completion,
  CompletionRequest,
  LanguageModel,
  LanguageModelFactory,
} from '../../application/shared/llm.js';
import type { Provider } from '../../domain/catalog.js';
import type { Logger } from '../../application/shared/ports.js';
import { AdaptiveLimit, limitedFetch } from './adaptive-limit.js';
import { modelFetch } from './model-fetch.js';

export interface OpenAiOptions {
  timeoutMs?: number;
  maxRetries?: number;
  /** requests at once per provider (base URL and key), fewer while it answers 429 */
  maxConcurrency?: number;
  /** hears of each cut of a provider's limit */
  logger?: Logger;
}

/** The SDK is loaded on the first request: an idle process does not hold it (docs/decisions/0003-idle-memory.md). */
let sdk: Promise<typeof import('openai')> | undefined;
/** the SDK's requests go out on node:http(s), not Node's fetch (model-fetch.ts) */
const send = modelFetch();

/** The `openai` SDK against any OpenAI-compatible base URL (one client for every provider the admin adds). */
export class OpenAiLanguageModel implements LanguageModel {
  private sdkClient: Promise<OpenAI> | undefined;
  readonly providerName: string;

  constructor(
    private readonly provider: Provider,
    private readonly opts: OpenAiOptions = {},
    private readonly limit?: AdaptiveLimit,
  ) {
    this.providerName = provider.name;
    if (provider.imageModel) this.generateImage = (prompt, size) => this.image(prompt, size);
  }

  private client(): Promise<OpenAI> {
    return (this.sdkClient ??= (sdk ??= import('openai')).then(
      ({ default: OpenAI }) =>
        new OpenAI({
          baseURL: this.provider.baseUrl,
          apiKey: this.provider.apiKey ?? 'not-needed',
          timeout: this.opts.timeoutMs ?? 120_000,
          maxRetries: this.opts.maxRetries ?? 2,
          fetch: this.limit ? limitedFetch(this.limit, send) : send,
        }),
    ));
  }

  generateImage?: (prompt: string, size: { width: number; height: number }) => Promise<Buffer>;

  /** the provider answered 400 to a JSON schema once: this model asks for a JSON object after it */
  private schemaRefused = false;

  private responseFormat(req: CompletionRequest) {
    if (req.schema && !this.schemaRefused)
      return {
        type: 'json_schema' as const,
        json_schema: { name: req.schema.name, schema: req.schema.schema, strict: true },
      };
    return req.json || req.schema ? { type: 'json_object' as const } : undefined;
  }

  async complete(req: CompletionRequest): Promise<Completion> {
    const client = await this.client();
    const format = this.responseFormat(req);
    const body = {
      model: this.provider.model,
      messages: req.messages,
      temperature: req.temperature,
      max_tokens: req.maxTokens,
      ...(format ? { response_format: format } : {}),
    };
    const options = req.signal ? { signal: req.signal } : undefined;
    let res;
    try {
      if (req.onDelta) return await this.stream(client, body, req.onDelta, options);
      res = await client.chat.completions.create(body, options);
    } catch (err) {
      // servers that know only json_object (older Ollama, some proxies) refuse the schema with a
      // 400 that names it; a 400 for the content itself (a refusal) is no reason to drop the schema
      if (format?.type === 'json_schema' && refusesSchema(err)) {
        this.schemaRefused = true;
        return this.complete(req);
      }
      throw err;
    }
    const text = res.choices[0]?.message?.content ?? '';
    return {
      text,
      usage: {
        promptTokens: res.usage?.prompt_tokens ?? 0,
        completionTokens: res.usage?.completion_tokens ?? 0,
      },
    };
  }

  /** the same call streamed (server-sent chunks); usage from the final chunk when the server sends it */
  private async stream(
    client: OpenAI,
    body: Parameters<OpenAI['chat']['completions']['create']>[0],
    onDelta: (text: string) => void,
    options: { signal: AbortSignal } | undefined,
  ): Promise<Completion> {
    const chunks = await client.chat.completions.create(
      { ...body, stream: true, stream_options: { include_usage: true } },
      options,
    );
    let text = '';
    let usage = { promptTokens: 0, completionTokens: 0 };
    for await (const chunk of chunks) {
      const piece = chunk.choices[0]?.delta?.content ?? '';
      if (piece) {
        text += piece;
        onDelta(piece);
      }
      if (chunk.usage)
        usage = { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens };
    }
    return { text, usage };
  }

  private async image(prompt: string, size: { width: number; height: number }): Promise<Buffer> {
    const res = await (
      await this.client()
    ).images.generate({
      model: this.provider.imageModel!,
      prompt,
      n: 1,
      size: `${size.width}x${size.height}` as '1792x1024',
      response_format: 'b64_json',
    });
    const item = res.data?.[0];
    if (item?.b64_json) return Buffer.from(item.b64_json, 'base64');
    if (item?.url) {
      const r = await fetch(item.url, { signal: AbortSignal.timeout(60_000) });
      if (!r.ok) throw new Error(`image download failed with HTTP ${r.status}`);
      return Buffer.from(await r.arrayBuffer());
    }
    throw new Error('the image model returned no image');
  }
}

const refusesSchema = (err: unknown): boolean =>
  (err as { status?: unknown }).status === 400 &&
  /response_format|json_schema|schema/i.test(err instanceof Error ? err.message : String(err));

/**
 * One model client per provider and run; the limit of concurrent requests is one per provider
 * (its base URL and key) for the whole process, so what one run learned of a rate limit holds for
 * the next.
 */
export class OpenAiLanguageModelFactory implements LanguageModelFactory {
  private readonly limits = new Map<string, AdaptiveLimit>();

  constructor(private readonly opts: OpenAiOptions = {}) {}

  forProvider(provider: Provider): LanguageModel {
    return new OpenAiLanguageModel(provider, this.opts, this.limitOf(provider));
  }

  private limitOf(provider: Provider): AdaptiveLimit | undefined {
    const max = this.opts.maxConcurrency;
    if (!max) return undefined;
    const key = `${provider.baseUrl}\n${provider.apiKey ?? ''}`;
    let limit = this.limits.get(key);
    if (!limit) {
      limit = new AdaptiveLimit(max, (s) =>
        this.opts.logger?.warn({
          event: 'llm.rate_limited',
          provider: provider.name,
          limit: s.limit,
          in_flight: s.inFlight,
          waiting: s.waiting,
          pause_ms: s.pauseMs,
        }),
      );
      this.limits.set(key, limit);
    }
    return limit;
  }
}

import type OpenAI from 'openai';
import type {
  Completion,
  CompletionRequest,
  LanguageModel,
  LanguageModelFactory,
} from '../../application/shared/llm.js';
import type { Provider } from '../../domain/catalog.js';

export interface OpenAiOptions {
  timeoutMs?: number;
  maxRetries?: number;
}

/** The SDK is loaded on the first request: an idle process does not hold it (docs/decisions.md, "Idle memory"). */
let sdk: Promise<typeof import('openai')> | undefined;

/** The `openai` SDK against any OpenAI-compatible base URL (DESIGN.md §2). */
export class OpenAiLanguageModel implements LanguageModel {
  private sdkClient: Promise<OpenAI> | undefined;
  readonly providerName: string;

  constructor(
    private readonly provider: Provider,
    private readonly opts: OpenAiOptions = {},
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
        }),
    ));
  }

  generateImage?: (prompt: string, size: { width: number; height: number }) => Promise<Buffer>;

  async complete(req: CompletionRequest): Promise<Completion> {
    const res = await (
      await this.client()
    ).chat.completions.create({
      model: this.provider.model,
      messages: req.messages,
      temperature: req.temperature,
      max_tokens: req.maxTokens,
      ...(req.json ? { response_format: { type: 'json_object' as const } } : {}),
    });
    const text = res.choices[0]?.message?.content ?? '';
    return {
      text,
      usage: {
        promptTokens: res.usage?.prompt_tokens ?? 0,
        completionTokens: res.usage?.completion_tokens ?? 0,
      },
    };
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

export class OpenAiLanguageModelFactory implements LanguageModelFactory {
  constructor(private readonly opts: OpenAiOptions = {}) {}
  forProvider(provider: Provider): LanguageModel {
    return new OpenAiLanguageModel(provider, this.opts);
  }
}

import OpenAI from 'openai';
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

/** The `openai` SDK against any OpenAI-compatible base URL (DESIGN.md §2). */
export class OpenAiLanguageModel implements LanguageModel {
  private readonly client: OpenAI;
  readonly providerName: string;

  constructor(
    private readonly provider: Provider,
    opts: OpenAiOptions = {},
  ) {
    this.providerName = provider.name;
    this.client = new OpenAI({
      baseURL: provider.baseUrl,
      apiKey: provider.apiKey ?? 'not-needed',
      timeout: opts.timeoutMs ?? 120_000,
      maxRetries: opts.maxRetries ?? 2,
    });
    if (provider.imageModel) this.generateImage = (prompt, size) => this.image(prompt, size);
  }

  generateImage?: (prompt: string, size: { width: number; height: number }) => Promise<Buffer>;

  async complete(req: CompletionRequest): Promise<Completion> {
    const res = await this.client.chat.completions.create({
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
    const res = await this.client.images.generate({
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

import type { Provider } from '../../domain/catalog.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompletionRequest {
  messages: ChatMessage[];
  /** ask for a JSON object (OpenAI response_format json_object) */
  json?: boolean;
  temperature?: number;
  maxTokens?: number;
  /**
   * structured output: the answer is a JSON object of this JSON schema (OpenAI response_format
   * json_schema, strict); takes precedence over `json`
   */
  schema?: { name: string; schema: Record<string, unknown> };
  /** aborts the request (and its retries): the caller went away, or e.g. AbortSignal.timeout(ms) */
  signal?: AbortSignal;
  /**
   * streams the answer: called with each piece of text as the model writes it (the resolved
   * Completion still holds the whole text)
   */
  onDelta?: (text: string) => void;
  /** what the call is for, as its cost is counted (analysis, translation, report...) */
  purpose?: string;
  /** the run the call belongs to, when there is one */
  runId?: string | null;
}

export interface Completion {
  text: string;
  usage: { promptTokens: number; completionTokens: number };
}

/** An OpenAI-compatible model behind one provider row (OpenAI, Ollama, vLLM, OpenRouter...). */
export interface LanguageModel {
  readonly providerName: string;
  complete(req: CompletionRequest): Promise<Completion>;
  /** PNG bytes; only when the provider has an image model */
  generateImage?(prompt: string, size: { width: number; height: number }): Promise<Buffer>;
}

export interface LanguageModelFactory {
  forProvider(provider: Provider): LanguageModel;
}

/** Parses a model's JSON answer, tolerating a fenced ```json block around it. */
export function parseModelJson(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const body = (fenced?.[1] ?? text).trim();
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end < start) throw new Error('the model did not answer a JSON object');
  return JSON.parse(body.slice(start, end + 1));
}

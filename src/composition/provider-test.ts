import { ProviderTestService } from '../application/catalog/provider-test.service.js';
import { DrizzleProviderRepository } from '../infrastructure/db/repositories/catalog.repository.js';
import { OpenAiLanguageModelFactory } from '../infrastructure/llm/openai-language-model.js';
import type { AreaWiring, WiringContext } from './context.js';

/** POST /admin/providers/{id}/test: one small request, bounded (no retries, 20 s). */
export const wireProviderTest = (ctx: WiringContext): AreaWiring<'providerTest'> => ({
  services: {
    providerTest: new ProviderTestService(
      new DrizzleProviderRepository(ctx.db),
      new OpenAiLanguageModelFactory({ timeoutMs: 20_000, maxRetries: 0 }),
    ),
  },
});

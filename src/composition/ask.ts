import { AskService } from '../application/ask/ask.service.js';
import { AskRetriever } from '../application/ask/ask-retrieval.js';
import { EmbeddingCandidates } from '../application/ask/ask-embedding.js';
import type { EmbeddingProvider } from '../application/shared/embedding.js';
import {
  DrizzleAnsweringProvider,
  DrizzleAskHistory,
  DrizzleAskSearch,
} from '../infrastructure/db/repositories/ask.repository.js';
import type { AreaWiring, WiringContext } from './context.js';

/**
 * Articles each full-text term of a question may bring: bounded lower on PGlite, whose statements
 * run on the service's event loop (the same reasoning as the reader search's relevance bound).
 */
const PER_TERM = { postgres: 250, pglite: 60 } as const;

/** POST /ask and the asker's history: hybrid retrieval, the answering model, grounding. */
export const wireAsk = (
  ctx: WiringContext,
  { embedder }: { embedder: EmbeddingProvider },
): AreaWiring<'ask'> => {
  const search = new DrizzleAskSearch(ctx.db);
  const retriever = new AskRetriever(search, new EmbeddingCandidates(search, embedder), {
    perTerm: PER_TERM[ctx.database.kind],
  });
  return {
    services: {
      ask: new AskService({
        retriever,
        providers: new DrizzleAnsweringProvider(ctx.db),
        llm: ctx.llm,
        history: new DrizzleAskHistory(ctx.db),
        clock: ctx.clock,
        logger: ctx.logger.child({ area: 'ask' }),
      }),
    },
  };
};

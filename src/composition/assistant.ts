import { createAssistantTools, type AssistantDeps } from '../application/assistant/assistant-tools.js';
import type { TraceScope } from '../infrastructure/tracing/span-wrappers.js';
import type { AreaWiring, WiringContext } from './context.js';
import { traceAssistantTools } from './tracing.js';

/** The MCP server's tools over the other areas' use cases, a span per call when tracing is on. */
export const wireAssistant = (
  ctx: WiringContext,
  deps: Omit<AssistantDeps, 'publicBaseUrl'> & { scope: TraceScope | null },
): AreaWiring<'assistant'> => {
  const { scope, ...uses } = deps;
  const tools = createAssistantTools({ ...uses, publicBaseUrl: ctx.config.publicBaseUrl });
  return { services: { assistant: scope ? traceAssistantTools(scope, tools) : tools } };
};

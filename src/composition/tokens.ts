import { AccessTokensService } from '../application/tokens/tokens.service.js';
import { DrizzleAccessTokenRepository } from '../infrastructure/db/repositories/access-token.repository.js';
import type { AreaWiring, WiringContext } from './context.js';

/** Personal access tokens (/user/tokens, and the bearer credential they are on every route). */
export const wireTokens = (ctx: WiringContext): AreaWiring<'tokens'> => ({
  services: {
    tokens: new AccessTokensService(new DrizzleAccessTokenRepository(ctx.db), ctx.clock, ctx.logger),
  },
});

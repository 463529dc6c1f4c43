import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AppError } from '../../domain/errors.js';
import type { RateLimiter, RateLimitRule } from '../../application/shared/rate-limit.js';
import { clientKey } from './client-ip.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** name of the per-IP limit of this route (see installRateLimits) */
    rateLimit?: RateLimitName;
    /** only requests for which this holds count (e.g. the list only when it searches) */
    rateLimitWhen?: (req: FastifyRequest) => boolean;
    /** whom the limit counts: the client address (default) or the signed-in user (guests not counted) */
    rateLimitPer?: 'client' | 'user';
  }
}

export type RateLimitName = 'login' | 'register' | 'view' | 'search' | 'similar' | 'ask' | 'reader';
export type RateLimitRules = Record<RateLimitName, RateLimitRule | null>;

const toArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * Routes opt in with `config: { rateLimit: 'login' }`; the rules come from the config (null = off). Over the limit: 429
 * `rate_limited` with Retry-After; every limited response carries X-RateLimit-* headers. The limit
 * is an onRequest hook of the limited routes only (registered in onRoute, so install this before
 * the routes): every other route pays nothing for it.
 */
export function installRateLimits(
  app: FastifyInstance,
  limiter: RateLimiter,
  rules: RateLimitRules,
  trustedProxies: readonly string[],
): void {
  app.addHook('onRoute', (route) => {
    const name = route.config?.rateLimit;
    const rule = name ? rules[name] : null;
    if (!rule) return;
    const when = route.config?.rateLimitWhen;
    const perUser = route.config?.rateLimitPer === 'user';
    const limit: onRequestAsyncHookHandler = async (req, reply) => {
      if (when && !when(req)) return;
      // a guest is refused by the route's guard, never counted against anyone
      if (perUser && !req.principal) return;
      const key = perUser ? `user:${req.principal!.userId}` : clientKey(req, trustedProxies);
      const decision = await limiter.hit(rule, key);
      reply.header('x-ratelimit-limit', rule.max);
      reply.header('x-ratelimit-remaining', decision.remaining);
      reply.header('x-ratelimit-reset', decision.resetSeconds);
      if (!decision.allowed) {
        reply.header('retry-after', decision.resetSeconds);
        throw new AppError('RateLimited', 'rate_limited', 'too many requests, try again later');
      }
    };
    route.onRequest = [...toArray(route.onRequest), limit] as typeof route.onRequest;
  });
}

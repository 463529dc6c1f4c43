import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import type { RateLimiter, RateLimitRule } from '../../application/shared/rate-limit.js';
import { clientIp } from './client-ip.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** name of the per-IP limit of this route (see installRateLimits) */
    rateLimit?: RateLimitName;
  }
}

export type RateLimitName = 'login' | 'register' | 'view';
export type RateLimitRules = Record<RateLimitName, RateLimitRule | null>;

/**
 * Routes opt in with `config: { rateLimit: 'login' }`; the rules come from the config (null = off). Over the limit: 429
 * `rate_limited` with Retry-After; every limited response carries X-RateLimit-* headers.
 */
export function installRateLimits(
  app: FastifyInstance,
  limiter: RateLimiter,
  rules: RateLimitRules,
  trustedProxies: readonly string[],
): void {
  app.addHook('onRequest', async (req, reply) => {
    const name = req.routeOptions.config.rateLimit;
    const rule = name ? rules[name] : null;
    if (!rule) return;
    const decision = await limiter.hit(rule, clientIp(req, trustedProxies));
    reply.header('x-ratelimit-limit', rule.max);
    reply.header('x-ratelimit-remaining', decision.remaining);
    reply.header('x-ratelimit-reset', decision.resetSeconds);
    if (!decision.allowed) {
      reply.header('retry-after', decision.resetSeconds);
      throw new AppError('RateLimited', 'rate_limited', 'too many requests, try again later');
    }
  });
}

import type {
  FastifyInstance,
  FastifyRequest,
  onSendAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { AppError } from '../../domain/errors.js';
import type { LoginThrottle } from '../../application/auth/login-throttle.js';
import { clientKey } from './client-ip.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * the route signs in with `{email, password}` (or names the account its own way, `email`):
     * attempts are throttled per account (LoginThrottle)
     */
    loginThrottle?: boolean | { email: (req: FastifyRequest) => string };
  }
}

const toArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const emailOf = (body: unknown) => String((body as { email?: unknown } | null)?.email ?? '');

/**
 * Per-account sign-in throttling on the routes that opt in with `config: { loginThrottle: true }`:
 * a preHandler (the body is validated by then) asks the throttle before the password is checked; a
 * 401 answer starts the attempt's wait, a 200 answer clears the account's counts. A refused attempt answers 429 `sign_in_delayed` with
 * Retry-After, the seconds until the next attempt on that account may go ahead.
 */
export function installLoginThrottle(
  app: FastifyInstance,
  throttle: LoginThrottle,
  trustedProxies: readonly string[],
): void {
  app.addHook('onRoute', (route) => {
    const opt = route.config?.loginThrottle;
    if (!opt) return;
    const accountOf = (req: FastifyRequest) => (opt === true ? emailOf(req.body) : opt.email(req));
    const admit: preHandlerAsyncHookHandler = async (req, reply) => {
      const decision = await throttle.admit(accountOf(req), clientKey(req, trustedProxies));
      if (!decision.allowed) {
        reply.header('retry-after', decision.retryAfterSeconds);
        throw new AppError(
          'RateLimited',
          'sign_in_delayed',
          `too many failed sign-ins for this account: try again in ${decision.retryAfterSeconds} s`,
        );
      }
    };
    const settle: onSendAsyncHookHandler = async (req, reply, payload) => {
      const client = clientKey(req, trustedProxies);
      if (reply.statusCode === 200) await throttle.succeeded(accountOf(req), client);
      else if (reply.statusCode === 401) await throttle.failed(accountOf(req), client);
      return payload;
    };
    route.preHandler = [...toArray(route.preHandler), admit] as typeof route.preHandler;
    route.onSend = [...toArray(route.onSend), settle] as typeof route.onSend;
  });
}

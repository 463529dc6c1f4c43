import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../http/error-body.js';
import { callBackend, type ForwardOptions } from './forward.js';
import { SESSION_COOKIE, clearedSessionCookie, readCookie, sessionCookie } from './session-cookie.js';

interface SessionBody {
  access_token: string;
  expires_in: number;
  user: unknown;
}

/**
 * `POST /api/session` (login), `POST /api/session/register`, `DELETE /api/session` (logout),
 * `POST /api/session/password`, `/logout-others` and `/reset` (each answers a new token).
 * The token goes into the HttpOnly cookie and never into the page: the answer carries the user only.
 */
export const sessionRoutes =
  (opts: ForwardOptions & { secureCookie: boolean }): FastifyPluginAsync =>
  async (app) => {
    const open =
      (backendPath: string, okStatus: number, signedIn = false) =>
      async (req: FastifyRequest, reply: FastifyReply) => {
        const token = signedIn ? readCookie(req.headers.cookie, SESSION_COOKIE) : undefined;
        if (signedIn && !token)
          return reply.status(401).send(errorBody('unauthorized', 'authentication required', String(req.id)));
        let upstream;
        try {
          upstream = await callBackend(req, opts, {
            method: 'POST',
            pathAndQuery: backendPath,
            token,
            body: JSON.stringify(req.body ?? {}),
          });
        } catch (err) {
          req.log.warn({ event: 'web.session.upstream_failed', err });
          return reply
            .status(502)
            .send(errorBody('bad_gateway', 'the backend did not answer', String(req.id)));
        }
        const text = upstream.body ? await new Response(upstream.body).text() : '';
        const retryAfter = upstream.headers.get('retry-after');
        if (retryAfter) reply.header('retry-after', retryAfter);
        if (upstream.status !== okStatus) {
          return reply.status(upstream.status).type('application/json').send(text);
        }
        const session = JSON.parse(text) as SessionBody;
        reply.header(
          'set-cookie',
          sessionCookie(session.access_token, session.expires_in, opts.secureCookie),
        );
        reply.header('cache-control', 'no-store');
        return reply.status(okStatus).send({ user: session.user, expires_in: session.expires_in });
      };
    app.post('/api/session', open('/auth/login', 200));
    app.post('/api/session/register', open('/auth/register', 201));
    // a password change (optionally signing out the other sessions), signing out the other
    // sessions, and a reset link's new password each answer a new token: it replaces the cookie
    app.post('/api/session/password', open('/auth/password', 200, true));
    app.post('/api/session/logout-others', open('/auth/logout-others', 200, true));
    app.post('/api/session/reset', open('/auth/password-reset/confirm', 200));
    // sign-out revokes the token at the backend (a copy of the cookie stops working too), then
    // clears the cookie; a backend that cannot be reached is a 502 and the cookie stays, so the
    // page can say that signing out did not happen
    app.delete('/api/session', async (req, reply) => {
      const token = readCookie(req.headers.cookie, SESSION_COOKIE);
      if (token) {
        let upstream;
        try {
          upstream = await callBackend(req, opts, { method: 'POST', pathAndQuery: '/auth/logout', token });
          await upstream.body?.cancel();
        } catch (err) {
          req.log.warn({ event: 'web.session.upstream_failed', err });
          return reply
            .status(502)
            .send(errorBody('bad_gateway', 'the backend did not answer', String(req.id)));
        }
        // 401: the token was no longer valid, which is what signing out wants anyway
        if (upstream.status >= 500)
          return reply
            .status(502)
            .send(errorBody('bad_gateway', 'the backend could not sign out', String(req.id)));
      }
      return reply.header('set-cookie', clearedSessionCookie(opts.secureCookie)).status(204).send();
    });
  };

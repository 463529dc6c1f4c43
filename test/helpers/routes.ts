import type { FastifyInstance } from 'fastify';

/** `session`: a signed-in user's own session only, never a personal access token */
export type AuthLevel = 'public' | 'user' | 'session' | 'admin';

export interface RouteInfo {
  method: string;
  /** OpenAPI path, e.g. /articles/{id} */
  path: string;
  level: AuthLevel;
  schema: {
    parameters?: { in: string; name: string; required?: boolean; schema: Record<string, unknown> }[];
    requestBody?: { content?: Record<string, { schema: Record<string, unknown> }> };
  };
}

/**
 * The auth level of each route: public reads, the user's own /user/* and
 * /auth/me, admin for everything else (writes, /admin/*, /monitor/*, tag writes, suggestions).
 */
const PUBLIC: [string, RegExp][] = [
  ['GET', /^\/(health|ready|topics)$/],
  ['GET', /^\/articles(\/\{[^}]+\})?$/],
  ['POST', /^\/articles\/\{[^}]+\}\/view$/],
  ['POST', /^\/auth\/(register|login)$/],
  // "forgot password" and the reset link's new password (issue 25)
  ['POST', /^\/auth\/password-reset(\/confirm)?$/],
  ['GET', /^\/auth\/registration$/],
  // the reports and when the next one is due (the reports page says so to everyone)
  ['GET', /^\/weekly-reports(\/(latest|by-week|schedule))?$/],
  ['GET', /^\/metric-definitions$/],
  // what sorting by a metric can order: public like the list it annotates
  ['GET', /^\/articles\/metric-coverage$/],
  ['GET', /^\/tag-groups(\/\{[^}]+\})?$/],
  ['GET', /^\/media\//],
  // the reader (issue 17): similar articles and the Atom feeds out are public
  ['GET', /^\/articles\/\{[^}]+\}\/similar$/],
  ['GET', /^\/feeds\/(topics|reports)\/\{[^}]+\}\.atom$/],
  // a work and its versions (issue 28): public like the articles it groups
  ['GET', /^\/works\/\{[^}]+\}$/],
];

/** sign-out, the password and the access tokens themselves: with the account's session only */
const SESSION_ONLY = /^\/(auth\/(logout|logout-others|password)|user\/tokens(\/\{[^}]+\})?)$/;

export function authLevel(method: string, path: string): AuthLevel {
  if (PUBLIC.some(([m, re]) => m === method && re.test(path))) return 'public';
  if (SESSION_ONLY.test(path)) return 'session';
  if (
    ['/auth/me', '/auth/logout', '/auth/password', '/auth/logout-others'].includes(path) ||
    path.startsWith('/user/') ||
    path.startsWith('/me/')
  )
    return 'user';
  // read state of the signed-in reader
  if (/^\/articles(\/\{[^}]+\})?\/read(\/undo)?$/.test(path)) return 'user';
  // asking the corpus and the asker's own history (issue 27)
  if (/^\/ask(\/history)?$/.test(path)) return 'user';
  return 'admin';
}

/** Every route of the OpenAPI document (generated from the route table). */
export function routeTable(app: FastifyInstance): RouteInfo[] {
  const doc = (
    app as unknown as { swagger(): { paths: Record<string, Record<string, RouteInfo['schema']>> } }
  ).swagger();
  const routes: RouteInfo[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, schema] of Object.entries(ops)) {
      const m = method.toUpperCase();
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(m)) continue;
      routes.push({ method: m, path, level: authLevel(m, path), schema });
    }
  }
  return routes;
}

/** The path with each `{param}` replaced by the value the callback gives. */
export const fillPath = (path: string, value: (name: string) => string) =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(value(name)));

import type { FastifyInstance } from 'fastify';

export type AuthLevel = 'public' | 'user' | 'admin';

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
 * The auth level the spec and DESIGN.md give each route: public reads, the user's own /user/* and
 * /auth/me, admin for everything else (writes, /admin/*, /monitor/*, tag writes, suggestions).
 */
const PUBLIC: [string, RegExp][] = [
  ['GET', /^\/(health|ready|topics)$/],
  ['GET', /^\/articles(\/\{[^}]+\})?$/],
  ['POST', /^\/articles\/\{[^}]+\}\/view$/],
  ['POST', /^\/auth\/(register|login)$/],
  ['GET', /^\/auth\/registration$/],
  ['GET', /^\/weekly-reports(\/(latest|by-week))?$/],
  ['GET', /^\/metric-definitions$/],
  ['GET', /^\/tag-groups(\/\{[^}]+\})?$/],
  ['GET', /^\/media\//],
  // the reader (issue 17): similar articles and the Atom feeds out are public
  ['GET', /^\/articles\/\{[^}]+\}\/similar$/],
  ['GET', /^\/feeds\/(topics|reports)\/\{[^}]+\}\.atom$/],
];

export function authLevel(method: string, path: string): AuthLevel {
  if (PUBLIC.some(([m, re]) => m === method && re.test(path))) return 'public';
  if (path === '/auth/me' || path === '/auth/logout' || path.startsWith('/user/') || path.startsWith('/me/'))
    return 'user';
  // read state of the signed-in reader
  if (/^\/articles(\/\{[^}]+\})?\/read$/.test(path)) return 'user';
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

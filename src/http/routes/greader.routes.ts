import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalid, isAppError } from '../../domain/errors.js';
import { STATE } from '../../domain/greader.js';
import type { ReaderStream, StreamQuery } from '../../application/greader/greader.service.js';
import { principalOf, requireUser } from '../plugins/auth.js';
import { errorBody } from '../error-body.js';
import type { Services } from '../services.js';

const API = '/reader/api/0';
/** one parameter's value at most (a stream id is a feed URL) */
const MAX_VALUE = 2048;
/** values of one parameter at most (item ids) */
const MAX_VALUES = 1000;

type Params = Record<string, string | string[] | undefined>;

/** the query and the form body together: Reader clients put `i`, `a`, `r`, `s` in either */
function paramsOf(req: FastifyRequest): {
  one(name: string): string | undefined;
  all(name: string): string[];
} {
  const sources = [req.query as Params, (req.body ?? {}) as Params];
  const all = (name: string) => {
    const values = sources.flatMap((p) => {
      const v = p[name];
      return v === undefined ? [] : Array.isArray(v) ? v : [v];
    });
    if (values.length > MAX_VALUES) throw invalid(`at most ${MAX_VALUES} values of ${name}`, 'bad_request');
    for (const v of values)
      if (v.length > MAX_VALUE)
        throw invalid(`${name} is longer than ${MAX_VALUE} characters`, 'bad_request');
    return values;
  };
  return { all, one: (name) => all(name)[0] };
}

const int = (raw: string | undefined, name: string): number | undefined => {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,19}$/.test(raw)) throw invalid(`${name} must be a whole number`, 'bad_request');
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw invalid(`${name} is too large`, 'bad_request');
  return n;
};

function streamQuery(req: FastifyRequest): StreamQuery {
  const p = paramsOf(req);
  const output = p.one('output');
  if (output !== undefined && output !== 'json' && output !== 'atom')
    throw invalid('output must be json', 'bad_request');
  const r = p.one('r');
  if (r !== undefined && r !== 'o' && r !== 'n' && r !== 'd')
    throw invalid('r must be o (oldest first) or left out (newest first)', 'bad_request');
  return {
    n: int(p.one('n'), 'n'),
    c: p.one('c') || undefined,
    r,
    ot: int(p.one('ot'), 'ot'),
    nt: int(p.one('nt'), 'nt'),
    xt: p.all('xt'),
    it: p.all('it'),
  };
}

/** the stream of stream/contents/{stream}: the path's rest, or `s` */
function streamOf(req: FastifyRequest, rest: string | undefined): string {
  const s = rest || paramsOf(req).one('s');
  return s && s.length ? s : STATE.readingList;
}

const ok = (reply: FastifyReply) => reply.type('text/plain; charset=utf-8').send('OK');

/**
 * The Google Reader API (docs/decisions/0112-google-reader-api.md) for phone and desktop feed apps:
 * ClientLogin with a personal access token, then `Authorization: GoogleLogin auth=<token>`. Reads
 * need any token; edit-tag, mark-all-as-read and subscription changes a write token (a `read` one
 * gets 403 `token_read_only` from the auth hook), subscription changes an admin. Errors: the
 * service's JSON error body, with 400 for a request the API cannot take.
 */
export const greaderRoutes = (services: Services) => async (app: FastifyInstance) => {
  const g = services.greader;
  // Reader clients post forms; parsed here only (the rest of the API takes JSON)
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 256 * 1024 },
    (_req, body, done) => {
      const out: Params = {};
      for (const [k, v] of new URLSearchParams(body as string)) {
        const had = out[k];
        out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
      }
      done(null, out);
    },
  );
  // a request the Reader API cannot take is a 400 here (the JSON API's 422 means a schema refusal)
  app.setErrorHandler((err, req, reply) => {
    if (isAppError(err) && err.kind === 'Invalid')
      return reply.status(400).send(errorBody('bad_request', err.message, String(req.id), err.details));
    throw err;
  });

  // a refused token is marked as FreshRSS (`Google-Bad-Token`) and Miniflux
  // (`X-Reader-Google-Bad-Token`) mark it: the apps then sign in again instead of retrying
  app.addHook('onSend', async (req, reply) => {
    if (reply.statusCode === 401 && req.url.startsWith('/reader/'))
      reply.header('google-bad-token', 'true').header('x-reader-google-bad-token', 'true');
  });

  const reader = {
    preHandler: requireUser,
    config: { rateLimit: 'reader' as const, rateLimitPer: 'user' as const },
  };
  // reads a client may POST (long id lists): the route reads only, whatever the token's scope
  const readerPost = { ...reader, config: { ...reader.config, ownTokenScope: true } };
  const hide = { schema: { hide: true } };

  // the per-address `login` limit and the per-account sign-in throttle of /auth/login (growing delays
  // after failed attempts on the account named by Email)
  const clientLogin = {
    ...hide,
    config: {
      rateLimit: 'login' as const,
      loginThrottle: { email: (req: FastifyRequest) => paramsOf(req).one('Email') ?? '' },
    },
  };
  app.post('/accounts/ClientLogin', clientLogin, async (req, reply) => {
    const p = paramsOf(req);
    const email = p.one('Email');
    const passwd = p.one('Passwd');
    const auth = email && passwd ? await g.login(email, passwd) : null;
    reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8');
    if (!auth) return reply.status(401).send('Error=BadAuthentication\n');
    // Miniflux answers `output=json` with the same three values as JSON; plain text otherwise
    if (p.one('output') === 'json')
      return reply.type('application/json; charset=utf-8').send({ SID: auth, LSID: auth, Auth: auth });
    return reply.send(`SID=${auth}\nLSID=${auth}\nAuth=${auth}\n`);
  });

  app.get(`${API}/token`, { ...hide, ...reader }, async (req, reply) =>
    // no cross-site form can carry the Authorization header this API reads: T is not checked
    reply
      .type('text/plain; charset=utf-8')
      .send(`${principalOf(req).token?.id.replace(/-/g, '') ?? 'session'}\n`),
  );
  app.get(`${API}/user-info`, { ...hide, ...reader }, async (req) => g.userInfo(principalOf(req)));
  app.get(`${API}/tag/list`, { ...hide, ...reader }, async (req) => {
    streamQuery(req);
    return g.tagList();
  });
  app.get(`${API}/subscription/list`, { ...hide, ...reader }, async (req) => {
    streamQuery(req);
    return g.subscriptionList();
  });
  app.get(`${API}/unread-count`, { ...hide, ...reader }, async (req) => {
    streamQuery(req);
    return g.unreadCount(principalOf(req));
  });

  const contents = async (req: FastifyRequest) =>
    g.streamContents(
      principalOf(req),
      streamOf(req, (req.params as { '*'?: string })['*']),
      streamQuery(req),
    );
  app.get(`${API}/stream/contents`, { ...hide, ...reader }, contents);
  app.get(`${API}/stream/contents/*`, { ...hide, ...reader }, contents);

  const ids = async (req: FastifyRequest) => {
    const s = paramsOf(req).one('s');
    if (!s) throw invalid('s (the stream) is required', 'bad_request');
    return g.streamIds(principalOf(req), s, streamQuery(req));
  };
  app.get(`${API}/stream/items/ids`, { ...hide, ...reader }, ids);
  app.post(`${API}/stream/items/ids`, { ...hide, ...readerPost }, ids);

  const itemContents = async (req: FastifyRequest) => {
    const i = paramsOf(req).all('i');
    if (!i.length) throw invalid('i (one or more item ids) is required', 'bad_request');
    return g.itemsContents(principalOf(req), i);
  };
  app.get(`${API}/stream/items/contents`, { ...hide, ...reader }, itemContents);
  app.post(`${API}/stream/items/contents`, { ...hide, ...readerPost }, itemContents);

  app.post(`${API}/edit-tag`, { ...hide, ...reader }, async (req, reply) => {
    const p = paramsOf(req);
    const i = p.all('i');
    if (!i.length) throw invalid('i (one or more item ids) is required', 'bad_request');
    await g.editTag(principalOf(req), i, p.all('a'), p.all('r'));
    return ok(reply);
  });

  app.post(`${API}/mark-all-as-read`, { ...hide, ...reader }, async (req, reply) => {
    const p = paramsOf(req);
    const s = p.one('s');
    if (!s) throw invalid('s (the stream) is required', 'bad_request');
    await g.markAllRead(principalOf(req), s, int(p.one('ts'), 'ts'));
    return ok(reply);
  });

  app.post(`${API}/subscription/edit`, { ...hide, ...reader }, async (req, reply) => {
    const p = paramsOf(req);
    const ac = p.one('ac');
    if (!ac) throw invalid('ac (subscribe, unsubscribe or edit) is required', 'bad_request');
    await g.subscriptionEdit(principalOf(req), {
      ac,
      s: p.all('s'),
      t: p.one('t'),
      a: p.one('a'),
      r: p.one('r'),
    });
    return ok(reply);
  });

  app.post(`${API}/subscription/quickadd`, { ...hide, ...reader }, async (req) => {
    const url = paramsOf(req).one('quickadd');
    if (!url) throw invalid('quickadd (the address) is required', 'bad_request');
    return g.quickadd(principalOf(req), url);
  });

  // the legacy Atom stream: newsboat's FeedHQ source reads every subscription's items here
  app.get('/reader/atom/*', { ...hide, ...reader }, async (req, reply) => {
    const stream = (req.params as { '*'?: string })['*'] || STATE.readingList;
    const body = await g.streamContents(principalOf(req), stream, streamQuery(req));
    return reply.type('application/atom+xml; charset=utf-8').send(atomOf(body));
  });
};

// XML 1.0 allows tab and line breaks of the C0 controls only; a lone surrogate becomes U+FFFD
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const LONE_SURROGATE = /[\uD800-\uDFFF]/gu;
const xml = (s: string) =>
  s
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(NOT_XML_CHAR, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
const iso = (secs: number) => new Date(secs * 1000).toISOString();

/**
 * A stream as Google Reader's Atom: each entry's categories in the Reader scheme with a `label` (read,
 * fresh, starred, the topic): what feed apps read the read state from.
 */
function atomOf(s: ReaderStream): string {
  const category = (term: string) => {
    const label = term.startsWith('user/-/label/')
      ? term.slice('user/-/label/'.length)
      : term.slice(term.lastIndexOf('/') + 1);
    return `<category term="${xml(term)}" scheme="http://www.google.com/reader/" label="${xml(label)}"/>`;
  };
  const entries = s.items.map((it) => {
    const read = it.categories.includes(STATE.read);
    const terms = [...it.categories, ...(read ? [] : ['user/-/state/com.google/fresh'])];
    return [
      `<entry gr:crawl-timestamp-msec="${it.crawlTimeMsec}">`,
      `<id>${xml(it.id)}</id>`,
      `<title type="html">${xml(it.title)}</title>`,
      `<published>${iso(it.published)}</published>`,
      `<updated>${iso(it.updated)}</updated>`,
      `<link rel="alternate" href="${xml(it.alternate[0]?.href ?? '')}" type="text/html"/>`,
      ...terms.map(category),
      `<author><name>${xml(it.author ?? it.origin.title)}</name></author>`,
      `<content type="html">${xml(it.summary.content)}</content>`,
      `<source gr:stream-id="${xml(it.origin.streamId)}"><title>${xml(it.origin.title)}</title>`,
      `<link rel="alternate" href="${xml(it.origin.htmlUrl)}" type="text/html"/></source>`,
      '</entry>',
    ].join('');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:gr="http://www.google.com/schemas/reader/atom/">',
    `<id>tag:google.com,2005:reader/${xml(s.id)}</id>`,
    `<title>${xml(s.title)}</title>`,
    `<updated>${iso(s.updated)}</updated>`,
    s.continuation ? `<gr:continuation>${xml(s.continuation)}</gr:continuation>` : '',
    ...entries,
    '</feed>',
  ].join('\n');
}

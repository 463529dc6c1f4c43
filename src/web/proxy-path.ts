/**
 * Path hygiene of the same-origin forwarder (docs/decisions/0080-web-app-and-web-role.md): collapse `//`, decode once, refuse
 * `..` and `.` segments. The result is re-encoded per segment so the api decodes it exactly once
 * more and sees the same segments we checked.
 */
export type ProxyPath = { ok: true; path: string } | { ok: false; reason: string };

export function normalizeProxyPath(raw: string): ProxyPath {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return { ok: false, reason: 'malformed percent-encoding' };
  }
  if (decoded.includes('\0')) return { ok: false, reason: 'NUL in path' };
  const segments = decoded
    .replace(/\\/g, '/')
    .split('/')
    .filter((s) => s.length > 0);
  if (segments.some((s) => s === '..' || s === '.')) return { ok: false, reason: 'dot segment in path' };
  if (segments.length === 0) return { ok: false, reason: 'empty path' };
  return { ok: true, path: '/' + segments.map(encodeURIComponent).join('/') };
}

/** Splits `/api/proxy/a/b?x=1` into the backend path part and the raw query (kept verbatim). */
export function splitUrl(url: string, prefix: string): { path: string; query: string } {
  const q = url.indexOf('?');
  const pathPart = q === -1 ? url : url.slice(0, q);
  return { path: pathPart.slice(prefix.length), query: q === -1 ? '' : url.slice(q) };
}

/**
 * Backend paths the web role never forwards: `/metrics` is for a Prometheus on the internal network
 * (METRICS_ALLOWED_NETWORKS on the api role), never for browsers, and the forwarder reaches the api
 * from an address the api may trust. Judged on the normalised path, so `//metrics`, `%2fmetrics`,
 * `metrics/` and a `;param` or upper-case spelling are refused alike.
 */
const INTERNAL_ONLY = ['metrics'];

export function isInternalOnly(normalizedPath: string): boolean {
  const first = decodeURIComponent(normalizedPath.split('/')[1] ?? '')
    .split(';')[0]!
    .toLowerCase();
  return INTERNAL_ONLY.includes(first);
}

/**
 * Load generator of the view bench, run in its own process (fork) so that autocannon does not
 * share the server's event loop. Each request names a random article and a random client address
 * (X-Forwarded-For from loopback, a trusted proxy): a client address is never used twice, so every
 * view is a first view and must be counted.
 */
import autocannon from 'autocannon';

interface Job {
  url: string;
  path: (id: string) => string;
}
const args = JSON.parse(process.argv[2]!) as {
  base: string;
  pathTemplate: string;
  ids: string[];
  seconds: number;
  connections: number;
  /** first client address number; runs use disjoint ranges */
  ipBase: number;
};
const job: Job = { url: args.base, path: (id) => args.pathTemplate.replace('{id}', id) };
const rnd = (n: number) => Math.floor(Math.random() * n);
let next = args.ipBase;
const ip = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

const result = await autocannon({
  url: job.url,
  connections: args.connections,
  duration: args.seconds,
  requests: [
    {
      method: 'POST',
      setupRequest: (req) => ({
        ...req,
        path: job.path(args.ids[rnd(args.ids.length)]!),
        headers: { 'x-forwarded-for': ip(next++) },
      }),
    },
  ],
});
process.send!({
  rps: result.requests.average,
  total: result.requests.total,
  non2xx: result.non2xx,
  errors: result.errors,
  p99: result.latency.p99,
});

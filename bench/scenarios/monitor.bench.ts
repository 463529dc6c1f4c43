/**
 * Monitoring batch budget (docs/performance.md): a batch of 12 queries against a 150 ms upstream takes at
 * most 1.15x the time of one query through the same proxy — the queries run concurrently. Each
 * round sends one query, then one batch (after an untimed first round); the ratio is the median of the rounds' own ratios
 * (bench/types.ts `Rounds`), the figure and floor the medians of the batches and of the single queries.
 */
import { pino } from 'pino';
import type { Scenario } from '../types.js';
import { median, roundsOf } from '../rounds.js';
import {
  loadConfig,
  createContainer,
  buildApp,
  openDatabase,
  ScryptHasher,
} from '../../src/composition/bench-entry.js';
import { MonitorStorePeer, monitorEnv } from '../../test/peers/monitor-peers.js';

export const scenarios: Scenario[] = [
  {
    name: 'monitor.batch',
    async run(ctx) {
      const store = await new MonitorStorePeer().start();
      store.latencyMs = 150;
      const database = await openDatabase({ dataDir: 'memory://' });
      const config = loadConfig({
        ...monitorEnv(store.url),
        AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-1',
        LOG_LEVEL: 'silent',
        SCHEDULER_ENABLED: 'false',
      });
      const container = await createContainer(config, {
        database,
        logger: pino({ level: 'silent' }),
        hasher: new ScryptHasher({ N: 1024, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }),
      });
      const app = await buildApp(container.services, container.logger, {
        trustedProxies: config.trustedProxies,
      });
      try {
        await container.services.auth.ensureUser({
          email: 'bench@example.test',
          password: 'bench-password',
          role: 'admin',
        });
        const { access_token } = await container.services.auth.login({
          email: 'bench@example.test',
          password: 'bench-password',
        });
        const headers = { authorization: `Bearer ${access_token}` };
        const query = (i: number) =>
          `sum(count_over_time({service_name="article-intel"} | json | event="e${i}" [5m]))`;
        const rounds = ctx.quick ? 5 : 15;
        const one: number[] = [];
        const twelve: number[] = [];
        // round -1 warms up, untimed: the first request of a process pays for its cold paths
        for (let r = -1; r < rounds; r++) {
          let t = performance.now();
          const single = await app.inject({
            url: `/monitor/logs?query=${encodeURIComponent(query(r))}&start=1&end=2&step=60`,
            headers,
          });
          if (r >= 0) one.push(performance.now() - t);
          if (single.statusCode !== 200) throw new Error(`single query answered ${single.statusCode}`);
          t = performance.now();
          const batch = await app.inject({
            method: 'POST',
            url: '/monitor/log-metrics/batch',
            headers,
            payload: {
              queries: Array.from({ length: 12 }, (_, i) => ({
                id: `q${i}`,
                query: query(r * 100 + i),
                start: '1',
                end: '2',
                step: '60',
              })),
            },
          });
          if (r >= 0) twelve.push(performance.now() - t);
          const ok = (batch.json() as { results: { status: string }[] }).results.filter(
            (x) => x.status === 'ok',
          ).length;
          if (ok !== 12) throw new Error(`batch answered ${ok}/12 ok`);
        }
        const floor = median(one);
        const figure = median(twelve);
        const ratio = roundsOf(
          twelve.map((t, r) => t / one[r]!),
          'ratio',
          3,
        );
        return [
          {
            scenario: 'monitor.batch of 12 vs one query (150 ms upstream)',
            figure: Math.round(figure),
            unit: 'ms (median)',
            floor: Math.round(floor),
            ratio: ratio.median,
            budget: 'ratio <= 1.15',
            rounds: ratio,
            pass: ratio.median <= 1.15,
            notes: `${rounds} rounds, the median of their ratios; the ratio of the medians ${(figure / floor).toFixed(3)}; loopback Loki-speaking peer answering after 150 ms`,
          },
        ];
      } finally {
        await app.close();
        await container.close();
        await database.close();
        await store.stop();
      }
    },
  },
];

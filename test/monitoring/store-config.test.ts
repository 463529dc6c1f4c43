import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { logMonitorStores } from '../../src/composition/monitoring.js';
import { storeAuth } from '../../src/infrastructure/monitor/store-auth.js';
import { pino } from 'pino';
import { createTelemetry, tracingConfigured } from '../../src/infrastructure/tracing/telemetry.js';
import { OtlpReceiver } from '../peers/otlp-receiver.js';

const VARS = { url: 'MONITOR_LOGS_URL', user: 'MONITOR_LOGS_USER' };

/** what logMonitorStores says, one entry per line */
function lines(env: Record<string, string>) {
  const out: { fields: Record<string, unknown>; msg: string }[] = [];
  logMonitorStores(loadConfig(env), {
    info: (fields, msg) => out.push({ fields: fields as Record<string, unknown>, msg }),
  });
  return out;
}

describe('monitoring store credentials: optional for stores without auth', () => {
  it('uses a store with only its URL without auth, with user and key as Basic auth, never a key alone', () => {
    expect(storeAuth(VARS, undefined, 'u', 'k')).toEqual({ use: false, why: 'MONITOR_LOGS_URL is not set' });
    expect(storeAuth(VARS, 'http://loki:3100', undefined, undefined)).toEqual({
      use: true,
      url: 'http://loki:3100',
      authorization: undefined,
      how: 'no auth',
    });
    expect(storeAuth(VARS, 'http://loki:3100', 'u', 'k')).toEqual({
      use: true,
      url: 'http://loki:3100',
      authorization: `Basic ${Buffer.from('u:k').toString('base64')}`,
      how: 'Basic auth as MONITOR_LOGS_USER',
    });
    // the key is shared by every store: a store the admin gave no user never receives it
    const keyOnly = storeAuth(VARS, 'http://loki:3100', undefined, 'k');
    expect(keyOnly).toMatchObject({ use: true, authorization: undefined });
    expect(keyOnly.use && keyOnly.how).toMatch(/MONITOR_API_KEY is not sent/);
    // a user without a key meant auth: not used, and why
    expect(storeAuth(VARS, 'http://loki:3100', 'u', undefined)).toMatchObject({
      use: false,
      why: expect.stringMatching(/MONITOR_LOGS_USER is set but MONITOR_API_KEY is not/),
    });
  });

  it('pushes OTLP by the same rule: an endpoint alone without auth, a user without the key turns it off', () => {
    const base = { serviceName: 's', deploymentEnvironment: 'local', otlpUser: undefined, apiKey: undefined };
    expect(tracingConfigured({ ...base, otlpEndpoint: undefined })).toBe(false);
    expect(tracingConfigured({ ...base, otlpEndpoint: 'http://127.0.0.1:4318' })).toBe(true);
    expect(tracingConfigured({ ...base, otlpEndpoint: 'http://x', otlpUser: 'u', apiKey: 'k' })).toBe(true);
    expect(tracingConfigured({ ...base, otlpEndpoint: 'http://x', otlpUser: 'u' })).toBe(false);
  });

  it('exports spans to an ingest without auth with no Authorization header, and with Basic auth when a user is set', async () => {
    const receiver = await new OtlpReceiver().start();
    try {
      for (const [otlpUser, apiKey, expected] of [
        [undefined, 'shared-key', ''],
        ['ingest-user', 'shared-key', `Basic ${Buffer.from('ingest-user:shared-key').toString('base64')}`],
      ] as const) {
        receiver.auth = [];
        const telemetry = await createTelemetry(
          {
            serviceName: 'article-intel',
            deploymentEnvironment: 'local',
            otlpEndpoint: receiver.url,
            otlpUser,
            apiKey,
          },
          pino({ level: 'silent' }),
        );
        expect(telemetry.enabled).toBe(true);
        await telemetry.scope!.inSpan('scraper.run', { root: true }, () => Promise.resolve());
        await telemetry.flush();
        await telemetry.shutdown();
        expect(receiver.spans.some((sp) => sp.name === 'scraper.run')).toBe(true);
        expect(receiver.auth.length).toBeGreaterThan(0);
        expect(new Set(receiver.auth)).toEqual(new Set([expected]));
        receiver.spans = [];
      }
    } finally {
      await receiver.stop();
    }
  });

  it('logs one start-up line per store and one for the OTLP push: configured (where, how) or not and why', () => {
    const none = lines({});
    expect(none.map((l) => l.msg)).toEqual([
      'metrics store: not configured (MONITOR_METRICS_URL is not set)',
      'logs store: not configured (MONITOR_LOGS_URL is not set)',
      'traces store: not configured (MONITOR_TRACES_URL is not set)',
      'OTLP push (traces, logs, metrics): off (MONITOR_OTLP_ENDPOINT is not set)',
    ]);
    const some = lines({
      MONITOR_METRICS_URL: 'http://127.0.0.1:9090/prom/',
      MONITOR_LOGS_URL: 'https://logs.example.test',
      MONITOR_LOGS_USER: '1234',
      MONITOR_TRACES_URL: 'http://127.0.0.1:3200',
      MONITOR_TRACES_USER: '5678',
      MONITOR_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
    });
    expect(some.map((l) => l.msg)).toEqual([
      'metrics store: configured, http://127.0.0.1:9090/prom, no auth',
      'logs store: not configured (MONITOR_LOGS_USER is set but MONITOR_API_KEY is not (set both for Basic auth, or neither for a store without auth))',
      'traces store: not configured (MONITOR_TRACES_USER is set but MONITOR_API_KEY is not (set both for Basic auth, or neither for a store without auth))',
      'OTLP push (traces, logs, metrics): configured, http://127.0.0.1:4318, no auth',
    ]);
    expect(some[0]!.fields).toMatchObject({
      event: 'monitor.store',
      datasource: 'metrics',
      configured: true,
    });
    const withKey = lines({
      MONITOR_LOGS_URL: 'https://logs.example.test',
      MONITOR_LOGS_USER: '1234',
      MONITOR_API_KEY: 'the-secret-key',
    });
    expect(withKey[1]!.msg).toBe(
      'logs store: configured, https://logs.example.test, Basic auth as MONITOR_LOGS_USER',
    );
    expect(JSON.stringify(withKey)).not.toContain('the-secret-key');
  });
});

import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('config', () => {
  it('has working defaults for the embedded start', () => {
    const c = loadConfig({});
    expect(c.api.port).toBe(8000);
    expect(c.web.port).toBe(3000);
    expect(c.jobs.viewCountFlushIntervalSeconds).toBe(900);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.deploymentEnvironment).toBe('local');
    expect(c.embedding).toMatchObject({
      responseKey: 'dense',
      timeoutSeconds: 60,
      retries: 3,
      retryDelaySeconds: 2,
    });
  });

  it('lists every bad variable at once', () => {
    try {
      loadConfig({
        API_PORT: 'eighty',
        VIEW_COUNT_FLUSH_INTERVAL: '-5',
        DEPLOYMENT_ENVIRONMENT: 'staging',
        DATABASE_URL: 'nope',
      });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const problems = (e as ConfigError).problems.join('\n');
      for (const key of ['API_PORT', 'VIEW_COUNT_FLUSH_INTERVAL', 'DEPLOYMENT_ENVIRONMENT', 'DATABASE_URL'])
        expect(problems).toContain(key);
    }
  });

  it('reads FETCH_ALLOWED_HOSTS as hosts, IPs and CIDRs, empty by default, and refuses a bad entry', () => {
    expect(loadConfig({}).fetch.allowedHosts).toEqual([]);
    expect(loadConfig({ FETCH_ALLOWED_HOSTS: 'intranet.local, 10.0.0.0/8,::1' }).fetch.allowedHosts).toEqual([
      'intranet.local',
      '10.0.0.0/8',
      '::1',
    ]);
    expect(() => loadConfig({ FETCH_ALLOWED_HOSTS: '10.0.0.0/40' })).toThrow(/FETCH_ALLOWED_HOSTS/);
    expect(() => loadConfig({ FETCH_ALLOWED_HOSTS: 'http://x/' })).toThrow(/FETCH_ALLOWED_HOSTS/);
  });

  it('derives the monitoring allow-list from MONITOR_URL and MONITOR_ALLOWED_HOSTS', () => {
    const c = loadConfig({
      MONITOR_URL: 'https://grafana.example.test',
      MONITOR_ALLOWED_HOSTS: 'logs.example.test, 127.0.0.1:3100',
    });
    expect(c.monitor.allowedHosts).toEqual(['grafana.example.test', 'logs.example.test', '127.0.0.1:3100']);
  });

  it('refuses a monitoring URL the proxy could not use as written, and says what to do', () => {
    for (const [key, value, why] of [
      ['MONITOR_METRICS_URL', 'ftp://prom.example.test', /http:\/\/ or https:\/\//],
      ['MONITOR_LOGS_URL', 'http://user:pw@loki.example.test', /MONITOR_\*_USER/],
      ['MONITOR_TRACES_URL', 'http://tempo.example.test/?orgId=1', /route prefix/],
      ['MONITOR_OTLP_ENDPOINT', 'http://', /not a URL|http/],
      ['MONITOR_URL', 'http://a b', /not a URL|http/],
    ] as const) {
      try {
        loadConfig({ [key]: value });
        expect.unreachable(`${key}=${value}`);
      } catch (e) {
        const problems = (e as ConfigError).problems.filter((p) => p.startsWith(key)).join('\n');
        expect(problems, key).toMatch(why);
        expect(problems, key).not.toContain('pw@');
      }
    }
    // a route prefix and a trailing slash are fine
    const c = loadConfig({ MONITOR_METRICS_URL: 'http://127.0.0.1:9090/prom/' });
    expect(c.monitor.metrics.url).toBe('http://127.0.0.1:9090/prom/');
    // no MONITOR_URL needed
    expect(c.monitor.allowedHosts).toEqual([]);
  });
});

describe('settings', () => {
  it('declares every variable with a purpose, and every default passes its own schema', async () => {
    const { SETTINGS } = await import('./settings.js');
    const { Value } = await import('typebox/value');
    for (const [name, s] of Object.entries(SETTINGS)) {
      expect(s.doc.length, name).toBeGreaterThan(10);
      if (s.default !== undefined) expect(Value.Check(s.schema, s.default), name).toBe(true);
    }
  });

  it('reads a variable it does not declare as nothing, and an empty value as its default', () => {
    const c = loadConfig({ API_PORT: '', NOT_A_SETTING: 'x', JOB_CONCURRENCY: '4' });
    expect(c.api.port).toBe(8000);
    expect(c.jobs.concurrency).toBe(4);
  });
});

import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import ipaddr from 'ipaddr.js';
import type { FastifyRequest } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { clientIp } from '../../src/http/plugins/client-ip.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The Compose Specification's schema (test/fixtures/compose-spec/SOURCE.md), compiled once. */
function composeValidator() {
  const schema = JSON.parse(read('test/fixtures/compose-spec/compose-spec.json')) as Record<string, unknown>;
  delete schema.$schema; // draft-07, Ajv's default; its URL form here is not one Ajv registers
  const ajv = new Ajv({ allErrors: true, strict: false });
  return ajv.compile(schema);
}

/** The file as Compose reads it: YAML merge keys (`<<`) resolved. Shapes are checked by the schema. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed document of any shape
type Doc = Record<string, any>;
const loadCompose = (text: string) => parse(text, { merge: true }) as Doc;

describe('deploy/compose.yaml', () => {
  const validate = composeValidator();
  const compose = loadCompose(read('deploy/compose.yaml'));

  it('validates against the Compose Specification schema', () => {
    const ok = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('is the production topology: PostgreSQL, Redis, api x2, web, worker x2 with health checks', () => {
    const s = compose.services;
    expect(Object.keys(s).sort()).toEqual(['api', 'postgres', 'redis', 'web', 'worker']);
    expect(s.api.deploy.replicas).toBe(2);
    expect(s.worker.deploy.replicas).toBe(2);
    expect(s.web.deploy?.replicas ?? 1).toBe(1);
    for (const name of Object.keys(s)) expect(s[name].healthcheck?.test, name).toBeDefined();
    for (const role of ['api', 'web', 'worker'])
      expect(s[role].command).toEqual(['node', 'dist/main.js', role]);
    expect(s.web.environment.API_URL).toBe('http://api:8000');
    for (const role of ['api', 'web', 'worker']) {
      expect(s[role].environment.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
      expect(s[role].environment.REDIS_URL).toBe('redis://redis:6379');
      expect(s[role].env_file).toEqual([{ path: '.env', required: true }]);
      expect(s[role].depends_on).toBeDefined();
    }
    expect(Object.keys(compose.volumes).sort()).toEqual(['media', 'pgdata', 'redisdata']);
  });

  it('keeps secrets out of the file: they come from the env file', () => {
    const text = read('deploy/compose.yaml');
    expect(text).not.toMatch(/AUTH_SECRET|ADMIN_PASSWORD|api_key/i);
    const example = read('deploy/.env.example');
    for (const name of ['POSTGRES_PASSWORD', 'AUTH_SECRET', 'PUBLIC_BASE_URL'])
      expect(example).toMatch(new RegExp(`^${name}=`, 'm'));
  });

  it('the schema refuses what Compose refuses (the check can fail)', () => {
    const broken = structuredClone(compose);
    broken.services.api.deploy.replicas = { many: true };
    broken.services.web.restrat = 'always';
    expect(validate(broken)).toBe(false);
    const paths = (validate.errors ?? []).map((e) => e.instancePath);
    expect(paths).toContain('/services/api/deploy/replicas');
    expect(validate.errors?.some((e) => e.params && 'additionalProperty' in e.params)).toBe(true);
  });
});

/** Compose's interpolation of `${VAR}`, `${VAR:-default}` and `${VAR:?message}` against `vars`. */
const interpolate = (value: string, vars: Record<string, string>) =>
  value.replace(/\$\{([A-Z0-9_]+)(?:(:-|:\?)([^}]*))?\}/g, (_m, name: string, op?: string, rest?: string) => {
    const v = vars[name];
    if (v) return v;
    if (op === ':?') throw new Error(`${name}: ${rest}`);
    return op === ':-' ? (rest ?? '') : '';
  });

/** The address a role's client-address rule settles on for one request. */
const clientOf = (trustedProxies: string[], socket: string, xff?: string) =>
  clientIp(
    {
      socket: { remoteAddress: socket },
      headers: xff ? { 'x-forwarded-for': xff } : {},
      raw: {},
    } as unknown as FastifyRequest,
    trustedProxies,
  );

describe('deploy/compose.yaml: who may speak for a client (X-Forwarded-For)', () => {
  const compose = loadCompose(read('deploy/compose.yaml'));
  const roleConfig = (role: string, vars: Record<string, string> = {}) => {
    const env = Object.fromEntries(
      Object.entries(compose.services[role].environment as Record<string, string>).map(([k, v]) => [
        k,
        interpolate(String(v), { POSTGRES_PASSWORD: 'pw', ...vars }),
      ]),
    );
    return loadConfig({ ...env, AUTH_SECRET: 'x'.repeat(40) });
  };
  const subnet = compose.networks?.default?.ipam?.config?.[0]?.subnet as string;
  const webAddress = compose.services.web.networks?.default?.ipv4_address as string;

  it('puts the web role at a fixed address of a fixed subnet', () => {
    expect(subnet).toMatch(/^\d+\.\d+\.\d+\.\d+\/\d+$/);
    expect(ipaddr.parse(webAddress).match(ipaddr.parseCIDR(subnet))).toBe(true);
  });

  it('trusts no private range: the web role only loopback, the api only loopback and the web role', () => {
    expect(roleConfig('web').trustedProxies).toEqual(['loopback']);
    expect(roleConfig('api').trustedProxies).toEqual(['loopback', webAddress]);
    expect(roleConfig('worker').trustedProxies).toEqual(['loopback']);
    for (const role of ['api', 'web', 'worker'])
      for (const entry of roleConfig(role).trustedProxies) {
        expect(entry, role).not.toBe('uniquelocal');
        expect(entry, role).not.toContain('/');
      }
  });

  it('a client on a private network, or the gateway of a published port, cannot claim another address', () => {
    const web = roleConfig('web').trustedProxies;
    const gateway = subnet.replace(/\.0\/\d+$/, '.1');
    for (const socket of ['10.1.2.3', '172.16.5.4', '192.168.1.20', gateway, '203.0.113.9'])
      expect(clientOf(web, socket, '198.51.100.1'), socket).toBe(socket);
  });

  it('the api believes the web role for its browser, and no other container of the network', () => {
    const api = roleConfig('api').trustedProxies;
    expect(clientOf(api, webAddress, '203.0.113.7')).toBe('203.0.113.7');
    const neighbour = subnet.replace(/\.0\/\d+$/, '.20');
    expect(clientOf(api, neighbour, '203.0.113.7')).toBe(neighbour);
  });

  it('a TLS proxy in front of the web role is trusted by its address from deploy/.env, and only it', () => {
    const web = roleConfig('web', { WEB_TRUSTED_PROXIES: 'loopback,192.0.2.80' }).trustedProxies;
    expect(clientOf(web, '192.0.2.80', '203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf(web, '192.0.2.81', '203.0.113.7')).toBe('192.0.2.81');
    expect(read('deploy/.env.example')).toMatch(/^# WEB_TRUSTED_PROXIES=/m);
  });
});

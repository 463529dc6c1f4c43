import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

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

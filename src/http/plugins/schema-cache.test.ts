import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { cachedSerializerFactory } from './serialization.js';
import { installValidators } from './validation.js';
import { compileAllPending } from './compiled-on-first-call.js';
import { buildTestApp } from '../../../test/helpers/app.js';

const Shared = { $id: 'CacheTestShared', type: 'object', properties: { code: { type: 'string' } } };
const query = () => ({
  type: 'object',
  properties: { n: { type: 'integer' }, q: { type: 'string' } },
});

type Validate = ((data: unknown) => boolean) & { errors?: unknown };
const compile = (app: FastifyInstance, schema: object, httpPart: string) =>
  app.validatorCompiler!({ schema, method: 'GET', url: '/x', httpPart }) as Validate;

describe('validators compiled once per process', () => {
  it('a second app gets the validator of a schema with the same text, per request part', () => {
    const a = Fastify();
    const b = Fastify();
    installValidators(a, [Shared]);
    installValidators(b, [Shared]);
    // two objects of the same text (routes write their schemas inline: new objects in every build)
    const first = compile(a, query(), 'querystring');
    const again = compile(b, query(), 'querystring');
    expect(again).toBe(first);
    // the body's validator is the strict one: a different function for the same schema
    const body = compile(b, query(), 'body');
    expect(body).not.toBe(first);
    expect(first({ n: '5' })).toBe(true); // a query string is coerced
    expect(body({ n: '5' })).toBe(false); // a body is not
    // the guards survive the cache: control characters are refused by the reused validator
    expect(again({ q: 'a\u0000b' })).toBe(false);
    expect(compile(b, { ...query(), required: ['n'] }, 'querystring')).not.toBe(first);
  });

  it('other shared schemas get validators of their own', () => {
    const a = Fastify();
    const b = Fastify();
    installValidators(a, [Shared]);
    installValidators(b, [{ ...Shared, properties: { code: { type: 'integer' } } }]);
    expect(compile(b, query(), 'querystring')).not.toBe(compile(a, query(), 'querystring'));
  });
});

describe('response serializers compiled once per process', () => {
  const route = (schema: object) => ({ schema, method: 'GET', url: '/x', httpStatus: '200' });
  const out = () => ({ type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } });

  it('answers the serializer of the same schema text, for the same shared schemas and options', () => {
    const factory = cachedSerializerFactory();
    const first = factory({ CacheTestShared: Shared }, {})(route(out()));
    const again = factory({ CacheTestShared: Shared }, {})(route(out()));
    expect(again).toBe(first);
    expect(first({ id: 1, name: 'a', secret: 'x' })).toBe('{"id":1,"name":"a"}');
    // another schema, other shared schemas, other options: compiled anew
    expect(factory({ CacheTestShared: Shared }, {})(route({ ...out(), required: ['id'] }))).not.toBe(first);
    expect(factory({}, {})(route(out()))).not.toBe(first);
    expect(factory({ CacheTestShared: Shared }, { rounding: 'ceil' })(route(out()))).not.toBe(first);
  });
});

describe('schemas compiled on their first call', () => {
  it('every request and response schema of the whole app compiles', async () => {
    const t = await buildTestApp();
    try {
      await t.app.ready();
      // nothing of the app was called yet: its routes' schemas wait for a first call, but for those
      // an app of an earlier file in this worker compiled (isolate: false shares the cache)
      expect(() => compileAllPending()).not.toThrow();
      expect(compileAllPending()).toBe(0);
      // and the app's routes are answered by them (one public route, validated and serialized)
      const res = await t.app.inject({ url: '/articles?limit=101' });
      expect(res.statusCode).toBe(422);
    } finally {
      await t.close();
    }
  });

  it('compiles a validator on its first call; a schema that cannot compile fails there, and compileAllPending finds it', () => {
    const app = Fastify();
    installValidators(app, [Shared]);
    const broken = { type: 'object', properties: { n: { type: 'not-a-json-type' } } };
    // handing out the validator compiles nothing yet
    const validate = compile(app, broken, 'body');
    expect(() => compileAllPending()).toThrow(/schema is invalid/);
    // reported once: it no longer waits, and its route's every call still fails
    expect(compileAllPending()).toBe(0);
    expect(() => validate({ n: 1 })).toThrow();
    expect(() => validate({ n: 1 })).toThrow();
    // a good schema: errors reach the function Fastify was given, call after call
    const good = compile(app, { ...query(), required: ['n'], additionalProperties: false }, 'body');
    expect(good({ n: 'x' })).toBe(false);
    expect(JSON.stringify(good.errors)).toContain('integer');
    expect(good({ n: 1 })).toBe(true);
    expect(good.errors).toBeNull();
  });
});

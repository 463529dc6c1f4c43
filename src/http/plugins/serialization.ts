import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { compiledOnFirstCall } from './compiled-on-first-call.js';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;

/**
 * Fastify's own response serializers (fast-json-stringify), kept for the process per schema text: an
 * app built again in the same process (every test file builds its own) reuses them instead of
 * compiling every route's response schemas anew. A serializer depends only on its schema's JSON and
 * on the shared schemas and options it was built with, which key the cache too. Route schemas are
 * mostly written inline (new objects in every build), so the text, not the object, is the key. Give
 * it to Fastify as `schemaController.compilersFactory.buildSerializer`. Each is compiled on the first
 * answer that uses it (compiled-on-first-call.ts).
 */
export function cachedSerializerFactory(): SerializerFactory {
  const build = SerializerSelector();
  const byContext = new Map<string, Map<string, Serializer>>();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    const key = JSON.stringify([externalSchemas ?? null, options ?? null]);
    let compiled = byContext.get(key);
    if (!compiled) byContext.set(key, (compiled = new Map()));
    const cache = compiled;
    return (route) => {
      const text = JSON.stringify(route.schema);
      if (text === undefined) return compile(route);
      let serialize = cache.get(text);
      if (!serialize) cache.set(text, (serialize = compiledOnFirstCall(() => compile(route))));
      return serialize;
    };
  };
}

/** one cache for every app of the process */
export const buildSerializer = cachedSerializerFactory();

import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

/**
 * Two validators: query strings, params and headers are coerced from text ("20" → 20, "true" → true);
 * JSON bodies are checked strictly, so a wrong type in a body is a 422 and never silently converted.
 */
export function installValidators(app: FastifyInstance, sharedSchemas: unknown[]): void {
  const base: Options = {
    allErrors: false,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
    keywords: ['example'],
  };
  const coercing = new Ajv({ ...base, coerceTypes: 'array' });
  const strict = new Ajv({ ...base, coerceTypes: false });
  for (const ajv of [coercing, strict]) {
    addFormats.default(ajv);
    for (const s of sharedSchemas) ajv.addSchema(s as object);
  }
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    return ajv.compile(schema as FastifySchema & object);
  });
}

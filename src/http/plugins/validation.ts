import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema, FastifySchemaValidationError } from 'fastify';
import { compiledOnFirstCall } from './compiled-on-first-call.js';

/**
 * Text fields that may hold several lines (tab, LF and CR allowed). Every other string of a request
 * refuses all C0 controls. A route can opt a field in with `'x-multiline': true` on its schema.
 */
const MULTILINE_FIELDS = new Set(['description', 'query', 'summary_text', 'content']);
/** U+0000..U+001F; the multi-line variant lets tab, LF and CR through */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const ANY_CONTROL = /[\u0000-\u001f]/;
// eslint-disable-next-line no-control-regex -- as above
const NON_LINE_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

type Node = Record<string, unknown>;

/**
 * Two validators: query strings, params and headers are coerced from text ("20" → 20, "true" → true);
 * JSON bodies are checked strictly, so a wrong type in a body is a 422 and never silently converted.
 * Both refuse control characters in every string of a request (NUL would otherwise reach PostgreSQL
 * and fail there as a 500): the schemas are rewritten once, when a route's validator is compiled.
 *
 * Compiled validators are kept for the process, per request part and schema text: an app built again
 * in the same process (every test file builds its own) reuses them instead of compiling every
 * route's schemas anew (about half a second of CPU an app). A validator depends only on the schema's
 * JSON (TypeBox's symbols and Fastify's marks are not read by Ajv) and on the two Ajv instances,
 * which are made once per set of shared schemas. A route's schemas are mostly written inline, so
 * their objects are new in every build: the text, not the object, is the key. Each is compiled on
 * the first request that uses it (compiled-on-first-call.ts).
 */
export function installValidators(app: FastifyInstance, sharedSchemas: unknown[]): void {
  const { coercing, strict, compiled } = validatorsFor(sharedSchemas);
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const part = httpPart ?? 'body';
    const key = `${part} ${JSON.stringify(schema)}`;
    const known = compiled.get(key);
    if (known) return known;
    const made = compiledOnFirstCall(() => {
      const ajv = part === 'body' ? strict : coercing;
      const guarded = part === 'headers' ? schema : guardStrings(schema as Node, false);
      const validate = ajv.compile(guarded as FastifySchema & object) as Validate;
      return part === 'querystring' || part === 'params'
        ? refuseControlsBeforeCoercion(validate, schema as Node)
        : validate;
    });
    compiled.set(key, made);
    return made;
  });
}

interface Validators {
  coercing: Ajv;
  strict: Ajv;
  /** `<request part> <schema JSON>` -> its validator */
  compiled: Map<string, Validate>;
}

/** the two Ajv instances with these shared schemas, made once per process (keyed by their text) */
const validatorSets = new Map<string, Validators>();

function validatorsFor(sharedSchemas: unknown[]): Validators {
  const key = JSON.stringify(sharedSchemas);
  let set = validatorSets.get(key);
  if (!set) {
    const base: Options = {
      allErrors: false,
      useDefaults: true,
      removeAdditional: false,
      strict: false,
      keywords: ['example', 'x-multiline'],
    };
    const coercing = new Ajv({ ...base, coerceTypes: 'array' });
    const strict = new Ajv({ ...base, coerceTypes: false });
    for (const ajv of [coercing, strict]) {
      addFormats.default(ajv);
      addControlCharsKeyword(ajv);
      for (const s of sharedSchemas) ajv.addSchema(s as object);
    }
    validatorSets.set(key, (set = { coercing, strict, compiled: new Map() }));
  }
  return set;
}

type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

/**
 * Query strings and path parameters arrive as text and are coerced before the schema sees them:
 * "\u000b5" becomes the number 5 (JavaScript's Number() trims control whitespace), so the string
 * keyword never runs. Every raw value is checked first, by the same multi-line rule.
 */
function refuseControlsBeforeCoercion(validate: Validate, schema: Node): Validate {
  const properties = (schema?.properties ?? {}) as Record<string, Node | undefined>;
  const check: Validate = (data) => {
    if (data && typeof data === 'object')
      for (const name in data as Record<string, unknown>) {
        const raw = (data as Record<string, unknown>)[name];
        const multiline = MULTILINE_FIELDS.has(name) || properties[name]?.['x-multiline'] === true;
        const pattern = multiline ? NON_LINE_CONTROL : ANY_CONTROL;
        if (holdsControl(raw, pattern)) {
          check.errors = [
            {
              keyword: 'controlChars',
              instancePath: `/${name}`,
              schemaPath: '#/controlChars',
              params: {},
              message: multiline
                ? 'must not contain control characters other than tab and line breaks'
                : 'must not contain control characters',
            },
          ];
          return false;
        }
      }
    const ok = validate(data);
    check.errors = validate.errors;
    return ok;
  };
  return check;
}

/** a raw query or path value (a string, or a repeated query parameter's strings) */
const holdsControl = (raw: unknown, pattern: RegExp): boolean =>
  typeof raw === 'string'
    ? pattern.test(raw)
    : Array.isArray(raw) && raw.some((v) => typeof v === 'string' && pattern.test(v));

interface KeywordFn {
  (mode: string, data: string): boolean;
  errors?: { keyword: string; message: string; params: Record<string, never> }[];
}

function addControlCharsKeyword(ajv: Ajv): void {
  const validate: KeywordFn = (mode, data) => {
    if (!(mode === 'multiline' ? NON_LINE_CONTROL : ANY_CONTROL).test(data)) return true;
    validate.errors = [
      {
        keyword: 'controlChars',
        message:
          mode === 'multiline'
            ? 'must not contain control characters other than tab and line breaks'
            : 'must not contain control characters',
        params: {},
      },
    ];
    return false;
  };
  ajv.addKeyword({
    keyword: 'controlChars',
    type: 'string',
    schemaType: 'string',
    errors: true,
    validate: validate as never,
  });
}

/** A copy of the schema with `controlChars` on every string it accepts. */
export function guardStrings(schema: Node, multiline: boolean): Node {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out: Node = {};
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    if (!value || typeof value !== 'object') {
      out[key] = value;
    } else if (key === 'properties' || key === 'patternProperties') {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, Node>).map(([name, s]) => [
          name,
          guardStrings(
            s,
            key === 'properties' ? MULTILINE_FIELDS.has(name) || s?.['x-multiline'] === true : multiline,
          ),
        ]),
      );
    } else if (['items', 'additionalProperties', 'not', 'anyOf', 'oneOf', 'allOf'].includes(key)) {
      out[key] = Array.isArray(value)
        ? value.map((s: Node) => guardStrings(s, multiline))
        : guardStrings(value as Node, multiline);
    } else {
      out[key] = value;
    }
  }
  const type = schema.type;
  if (type === 'string' || (Array.isArray(type) && type.includes('string')))
    out.controlChars = multiline || schema['x-multiline'] === true ? 'multiline' : 'none';
  return out;
}

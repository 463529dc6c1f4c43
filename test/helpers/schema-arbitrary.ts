import fc from 'fast-check';

type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
};

/** Values that satisfy a JSON schema (as emitted by typebox for our routes). */
export function valid(schema: Schema): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return fc.oneof(...variants.map(valid));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return validString(schema);
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1000, -1e9),
        max: Math.min(schema.maximum ?? 1000, 1e9),
      });
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1000,
        max: schema.maximum ?? 1000,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items ? valid(schema.items) : fc.anything(), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case 'object': {
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const entries = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, valid(s)]));
      return fc.record(entries, { requiredKeys: [...required].filter((k) => k in props) as never[] });
    }
    default:
      return fc.anything();
  }
}

function validString(s: Schema): fc.Arbitrary<string> {
  switch (s.format) {
    case 'uuid':
      return fc.uuid({ version: 4 });
    case 'email':
      return fc.emailAddress();
    case 'date':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString());
  }
  const minLength = s.minLength ?? 0;
  const maxLength = Math.min(s.maxLength ?? 40, 40);
  if (s.pattern) {
    return fc
      .stringMatching(new RegExp(s.pattern))
      .map((v) => (v.length > (s.maxLength ?? Infinity) ? v.slice(0, s.maxLength) : v))
      .filter((v) => v.length >= minLength && new RegExp(s.pattern!).test(v));
  }
  return fc.string({ minLength, maxLength: Math.max(minLength, maxLength) });
}

/**
 * Values that break the schema for sure: the wrong JSON type at the top, or an object with an
 * unknown field (every body object of ours refuses unknown fields), or a field of the wrong type.
 */
export function invalidBody(schema: Schema): fc.Arbitrary<unknown> {
  const wrongTop = fc.oneof(
    fc.integer(),
    fc.string(),
    fc.constant(null),
    fc.array(fc.integer(), { maxLength: 3 }),
    fc.boolean(),
  );
  const props = Object.keys(schema.properties ?? {});
  const withUnknown = fc
    .tuple(valid(schema), fc.jsonValue()) // JSON values: an undefined would vanish from the body
    .map(([v, junk]) => ({ ...(typeof v === 'object' && v ? v : {}), __unknown_field__: junk }));
  const wrongField = props.length
    ? fc.tuple(fc.constantFrom(...props), valid(schema)).map(([k, v]) => ({
        ...(typeof v === 'object' && v ? v : {}),
        [k]: { not: ['the', 'expected', 'type'] },
      }))
    : withUnknown;
  return fc.oneof(wrongTop, withUnknown, wrongField);
}

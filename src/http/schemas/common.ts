import { Type, type TProperties, type TSchema } from 'typebox';

/** Objects at the edge refuse unknown fields (422), so a typo never passes silently. */
export const Obj = <T extends TProperties>(props: T, opts: { description?: string; title?: string } = {}) =>
  Type.Object(props, { additionalProperties: false, ...opts });

export const Uuid = (opts: { description?: string } = {}) => Type.String({ format: 'uuid', ...opts });
export const DateTime = () => Type.String({ format: 'date-time' });
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const IdParams = Obj({ id: Uuid() });

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      correlation_id: Type.Optional(Type.String()),
      details: Type.Optional(
        Type.Array(Type.Object({ path: Type.Optional(Type.String()), message: Type.String() })),
      ),
    }),
  },
  { $id: 'ErrorBody', title: 'Error' },
);

/** Per-status error responses a route may answer (referenced by every route's schema). */
export const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, Type.Ref('ErrorBody')])) as Record<number, TSchema>;

export const Pagination = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
};

export const NoContent = Type.Null({ description: 'No Content' });

/** The same fields, all optional (PATCH bodies); unknown fields still refused. */
export const PartialObj = <T extends TProperties>(props: T) =>
  Type.Partial(Type.Object(props), { additionalProperties: false });

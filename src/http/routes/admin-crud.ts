import type { Static, TObject, TProperties, TSchema } from 'typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, NoContent, Obj, PartialObj, errors } from '../schemas/common.js';
import { requireAdmin } from '../plugins/auth.js';

type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What the OpenAPI document says of one operation besides its schemas. */
interface Doc {
  summary?: string;
  description?: string;
}

export interface ListOp<Q extends TProperties, O extends TSchema> extends Doc {
  /** query parameters; unknown ones are refused (422) */
  query?: Q;
  /** the 200 body: an array, or a page object */
  out: O;
  run(query: Static<TObject<Q>>, req: FastifyRequest): Promise<Static<O>>;
}

export interface CreateOp<F extends TProperties, O extends TSchema> extends Doc {
  /** the body's fields; unknown fields are refused (422) */
  fields: F;
  /** the 201 body */
  out: O;
  /** what it can answer besides 401, 403 and 422 */
  errors: number[];
  run(body: Static<TObject<F>>, req: FastifyRequest): Promise<Static<O>>;
}

export interface UpdateOp<F extends TProperties, O extends TSchema> extends Doc {
  /** PATCH (default) or PUT; either way every field is optional */
  method?: 'patch' | 'put';
  fields: F;
  /** the 200 body */
  out: O;
  /** what it can answer besides 401, 403 and 422 (404 for an unknown id belongs here) */
  errors: number[];
  run(id: string, body: Partial<Static<TObject<F>>>, req: FastifyRequest): Promise<Static<O>>;
}

export interface RemoveOp extends Doc {
  /** throws the resource's 404 for an unknown id */
  run(id: string, req: FastifyRequest): Promise<unknown>;
}

export interface AdminResource<
  LQ extends TProperties,
  LO extends TSchema,
  CF extends TProperties,
  CO extends TSchema,
  UF extends TProperties,
  UO extends TSchema,
> {
  /** the collection: GET and POST here, PATCH/PUT and DELETE at {path}/:id */
  path: string;
  /** OpenAPI tags (default ['admin']) */
  tags?: string[];
  list?: ListOp<LQ, LO>;
  create?: CreateOp<CF, CO>;
  update?: UpdateOp<UF, UO>;
  remove?: RemoveOp;
}

const sec = { security: [{ bearer: [] }] };

/** typed as a plain status map: the handlers' results are checked against each op's run instead */
const responses = (ok: number, out: TSchema, more: number[]): Record<number, TSchema> => ({
  [ok]: out,
  ...errors(401, 403, ...more),
});

const doc = (d: Doc): Doc => ({
  ...(d.summary !== undefined && { summary: d.summary }),
  ...(d.description !== undefined && { description: d.description }),
});

/**
 * The admin routes of one resource, each guarded by requireAdmin and documented the same way:
 * GET {path} (list), POST {path} (create, 201), PATCH or PUT {path}/:id (update) and
 * DELETE {path}/:id (remove, 204). Give only the operations the resource has; every one answers
 * 401 and 403, and 422 when it takes an input the schema can refuse. Handlers stay one call into
 * the resource's service; anything of another shape is written beside it as a plain route.
 */
export function adminCrud<
  LQ extends TProperties = TProperties,
  LO extends TSchema = TSchema,
  CF extends TProperties = TProperties,
  CO extends TSchema = TSchema,
  UF extends TProperties = TProperties,
  UO extends TSchema = TSchema,
>(app: Api, r: AdminResource<LQ, LO, CF, CO, UF, UO>): void {
  const base = { tags: r.tags ?? ['admin'], ...sec };
  const guard = { preHandler: requireAdmin };
  // The schemas below are built from generic parts, so the type provider cannot name the request
  // types: each handler casts to the Static of the schema it registered, which the op's run checks.
  const { list, create, update, remove } = r;

  if (list) {
    const query = list.query && Obj(list.query);
    app.get(
      r.path,
      {
        ...guard,
        schema: {
          ...base,
          ...doc(list),
          ...(query && { querystring: query }),
          response: responses(200, list.out, query ? [422] : []),
        },
      },
      async (req) => list.run((req.query ?? {}) as Static<TObject<LQ>>, req),
    );
  }
  if (create) {
    app.post(
      r.path,
      {
        ...guard,
        schema: {
          ...base,
          ...doc(create),
          body: Obj(create.fields),
          response: responses(201, create.out, [...create.errors, 422]),
        },
      },
      async (req, reply) => reply.status(201).send(await create.run(req.body as Static<TObject<CF>>, req)),
    );
  }
  if (update) {
    app[update.method ?? 'patch'](
      `${r.path}/:id`,
      {
        ...guard,
        schema: {
          ...base,
          ...doc(update),
          params: IdParams,
          body: PartialObj(update.fields),
          response: responses(200, update.out, [...update.errors, 422]),
        },
      },
      async (req) => update.run(req.params.id, req.body as Partial<Static<TObject<UF>>>, req),
    );
  }
  if (remove) {
    app.delete(
      `${r.path}/:id`,
      {
        ...guard,
        schema: {
          ...base,
          ...doc(remove),
          params: IdParams,
          response: responses(204, NoContent, [404, 422]),
        },
      },
      async (req, reply) => {
        await remove.run(req.params.id, req);
        return reply.status(204).send(null);
      },
    );
  }
}

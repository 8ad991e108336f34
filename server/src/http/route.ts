import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import {
  type ApiOkExtras,
  type PathParams,
  type Route,
  type RouteBody,
  type RoutePayload,
  type RouteQuery,
} from '@imagestudio/contracts';
import { sendOk } from './envelope';
import { AUTH_GUARDS } from './route-guards';

/** What a route's handler gets: the request, the response, and its path parameters, query and body, parsed. */
export interface RouteInput<R extends Route> {
  req: Request;
  res: Response;
  /** For a handler that streams: hands a failure that happens after it returned to the error handler. */
  next: NextFunction;
  params: PathParams<R['path']>;
  query: RouteQuery<R>;
  body: RouteBody<R>;
}

/** A JSON reply with top-level fields beside its payload (`message`, `redirect_url`, ...). */
export class OkReply<T> {
  constructor(
    readonly payload: T,
    readonly extra: ApiOkExtras,
  ) {}
}

/** `{status:"OK", payload, ...extra}`: return it from a handler whose reply carries top-level fields. */
export const okWith = <T>(payload: T, extra: ApiOkExtras): OkReply<T> => new OkReply(payload, extra);

/**
 * Returned by a JSON route's handler that has sent its envelope itself (the catalogue sends cached bytes
 * with their ETag).
 */
export const SENT = Symbol('sent');

type JsonResult<P> = OkReply<P> | typeof SENT | (undefined extends P ? P | void : P);

/**
 * What a handler returns: for a JSON route its payload (typed by the route's reply schema), sent in the
 * envelope with the route's success status; for any other reply (a redirect, a stream, a file) nothing, the
 * handler answering through `res` itself.
 */
export type RouteResult<R extends Route> = R['reply'] extends { kind: 'json' } ? JsonResult<RoutePayload<R>> : void;

export type RouteHandler<R extends Route> = (input: RouteInput<R>) => RouteResult<R> | Promise<RouteResult<R>>;

export interface MountOptions {
  /** Checks run after the auth guard and before the query and body are parsed (rate limits, upload budget). */
  before?: RequestHandler[];
}

/** `/jobs/{id}` as Express mounts it: `/jobs/:id`. */
export const expressPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Mounts one entry of the route table (contracts/src/routes) on `router`: the guard of its `auth`, the
 * `before` checks, then its query and JSON body parsed with its schemas (a failure is the 422 envelope,
 * through the error handler, as every route answered before), then `handler`. A JSON route's result is sent
 * in the envelope with the route's success status.
 */
export function mountRoute<R extends Route>(
  router: Router,
  route: R,
  handler: RouteHandler<R>,
  options: MountOptions = {},
): void {
  const run: RequestHandler = async (req, res, next) => {
    const parse = route.validatedBy !== 'handler';
    const query = parse && route.query ? route.query.parse(req.query) : req.query;
    const body = parse && route.body ? route.body.parse(req.body) : req.body;
    const params = req.params as PathParams<R['path']>;
    const result = await handler({ req, res, next, params, query, body } as RouteInput<R>);
    if (route.reply.kind !== 'json' || result === SENT) return;
    const status = route.reply.status ?? 200;
    if (result instanceof OkReply) sendOk(res, result.payload, result.extra, status);
    else sendOk(res, result ?? undefined, {}, status);
  };
  router[route.method](expressPath(route.path), ...AUTH_GUARDS[route.auth], ...(options.before ?? []), run);
}

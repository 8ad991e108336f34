import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import { SENT } from '../../http/route';
import type { CachedReply } from './catalog.cache';

/**
 * Sends a cached envelope with its ETag and Cache-Control. Express's res.send compares the ETag with
 * If-None-Match (req.fresh) and answers 304 without a body when the browser's copy is current.
 * `private`: the XSRF cookie may ride on the same reply, so shared caches must not keep it.
 */
export function sendCached(ctx: AppContext, req: Request, res: Response, reply: CachedReply): void {
  res.set('Cache-Control', `private, max-age=${ctx.config.CATALOG_MAX_AGE_S}`);
  res.set('ETag', reply.etag);
  res.type('application/json');
  res.send(reply.body);
}

/** A route handler (server/src/http/route.ts) that serves `load(req)` through sendCached. */
export function cachedGet(
  ctx: AppContext,
  load: (req: Request) => Promise<CachedReply>,
): (input: { req: Request; res: Response }) => Promise<typeof SENT> {
  return async ({ req, res }) => {
    sendCached(ctx, req, res, await load(req));
    return SENT;
  };
}

/** A request parameter from the query (GET) or the body (POST/PUT/PATCH), as text when present. */
export function requestParam(req: Request, name: string): string | undefined {
  const fromQuery = req.query[name];
  if (typeof fromQuery === 'string' && fromQuery !== '') return fromQuery;
  const body = req.body as Record<string, unknown> | undefined;
  const fromBody = body && typeof body === 'object' ? body[name] : undefined;
  if (typeof fromBody === 'string' && fromBody !== '') return fromBody;
  if (typeof fromBody === 'number') return String(fromBody);
  return undefined;
}

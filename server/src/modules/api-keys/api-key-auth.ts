import type { Request, RequestHandler } from 'express';
import { API_KEY_MESSAGES, ROUTES } from '@imagestudio/contracts';
import { AppError } from '../../lib/errors';
import { authenticateKey } from './api-keys.service';
import { consumeOrThrow, refund } from '../../http/rate-limits';
import type { ApiKeysDeps } from './api-keys.deps';

declare module 'http' {
  interface IncomingMessage {
    /** Set when the request authenticated with an API key (no session, no XSRF token). */
    apiKeyId?: string;
  }
}

/** A table path (`/jobs/{id}`) as a pattern for a request path below /api, matched as Express matches it. */
function pathPattern(path: string): RegExp {
  const source = path
    .split(/(\{\w+\})/)
    .map((part) => (/^\{\w+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`, 'i');
}

/**
 * What an API key may call: the routes of the table marked `key` (the tools, the caller's jobs and batches,
 * reading the profile and the token activity). Everything else, managing keys, payments, the password and the
 * profile included, needs a browser session.
 */
const KEY_ROUTES = ROUTES.filter((route) => route.auth === 'key').map((route) => ({
  method: route.method.toUpperCase(),
  path: pathPattern(route.path),
}));

/** Whether a request (`req.method`, `req.path` below /api) reaches a route marked `key`; HEAD as its GET. */
export function apiKeyMayCall(method: string, path: string): boolean {
  const asMethod = method === 'HEAD' ? 'GET' : method;
  return KEY_ROUTES.some((route) => route.method === asMethod && route.path.test(path));
}

/** The key from `Authorization: Bearer <key>` or `X-Api-Key: <key>`; undefined when neither is sent. */
export function presentedKey(req: Request): string | undefined {
  const auth = req.headers.authorization;
  const bearer = auth?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (bearer) return bearer;
  const header = req.headers['x-api-key'];
  return typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined;
}

/** A query parameter that carries a key: named like one, or holding a value shaped like ours. */
export function keyInQuery(req: Request): boolean {
  return Object.entries(req.query).some(
    ([name, value]) =>
      /^(api[_-]?key|access[_-]?token)$/i.test(name) ||
      (Array.isArray(value) ? value : [value]).some((v) => typeof v === 'string' && v.startsWith('isk_live_')),
  );
}

const invalidKey = () => new AppError('unauthenticated', API_KEY_MESSAGES.invalidKey);
const notForKeys = () => new AppError('forbidden', API_KEY_MESSAGES.notAllowed);

/**
 * API-key authentication for /api, mounted before the session. A request that presents a key is
 * authenticated by it alone: unknown, revoked or expired keys get the 401 envelope, a route not marked
 * `key` in the route table the 403, and each key has its own per-minute limit in Redis. Such requests skip the
 * session and the XSRF check (see `unlessApiKey`): a key is never sent by a browser on its own, so
 * there is no cross-site request to guard against.
 */
export function apiKeyAuth(ctx: ApiKeysDeps): RequestHandler {
  const limiter = ctx.services.rateLimits.named('apiKey', ctx.config.API_KEY_RATE_PER_MINUTE, 60);
  const failures = ctx.services.rateLimits.named('apiKeyFailPerIp', ctx.config.API_KEY_FAILURES_PER_IP_PER_MINUTE, 60);
  return (req, _res, next) => {
    const key = presentedKey(req);
    // Refused outright, whatever the route: a key in a URL is already in proxies' and browsers' logs.
    if (key === undefined && keyInQuery(req)) return next(new AppError('unauthenticated', API_KEY_MESSAGES.keyInUrl));
    if (key === undefined) return next();
    // Every key lookup reserves a point of its address's failure allowance first (so a burst of concurrent
    // guesses is cut off too) and gives it back when the key is good.
    const ip = req.ip ?? 'unknown';
    consumeOrThrow(failures, ip, 'Too many requests with an invalid API key. Please wait a moment.')
      .then(() => authenticateKey(ctx, key))
      .then(async (found) => {
        if (!found) throw invalidKey();
        await refund(failures, ip);
        if (!apiKeyMayCall(req.method, req.path)) throw notForKeys();
        await consumeOrThrow(limiter, found.keyId);
        req.user = found.user;
        req.apiKeyId = found.keyId;
      })
      .then(() => next(), next);
  };
}

/** Runs `handler` (session, passport, XSRF) only for requests that did not authenticate with a key. */
export function unlessApiKey(handler: RequestHandler): RequestHandler {
  return (req, res, next) => (req.apiKeyId ? next() : handler(req, res, next));
}

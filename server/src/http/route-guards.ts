import type { RequestHandler } from 'express';
import { API_KEY_MESSAGES, type RouteAuth } from '@imagestudio/contracts';
import { forbidden, notFound, unauthenticated } from '../lib/errors';

/** 401 `unauthenticated` unless a user is signed in (by a session, or by an API key on a `key` route). */
const signedIn: RequestHandler = (req, _res, next) => {
  next(req.user ? undefined : unauthenticated());
};

/** A browser session only: an API key gets the 403 the API-key middleware gives every route not marked `key`. */
const noApiKey: RequestHandler = (req, _res, next) => {
  next(req.apiKeyId ? forbidden(API_KEY_MESSAGES.notAllowed) : undefined);
};

/**
 * The console's door, in front of every /api/admin route and the queue board: a browser session only (an
 * API key is refused, even an admin's), a signed-in user (guests 401), an admin (anyone else gets the
 * same 404 as an unknown path, so the console is not advertised). XSRF is checked for every change by
 * the app-wide CSRF step before this runs.
 */
export const requireAdmin: RequestHandler = (req, _res, next) => {
  if (req.apiKeyId) return next(forbidden(API_KEY_MESSAGES.notAllowed));
  if (!req.user) return next(unauthenticated());
  if (req.user.role !== 'admin') return next(notFound());
  next();
};

/**
 * The guards of each `auth` value of the route table. The API-key middleware has already refused a key on every
 * route not marked `key` (server/src/modules/api-keys/api-key-auth.ts); `session` checks it again so the
 * route stands on its own.
 */
export const AUTH_GUARDS: Record<RouteAuth, RequestHandler[]> = {
  public: [],
  session: [noApiKey, signedIn],
  key: [signedIn],
  admin: [requireAdmin],
};

import { RedisStore } from 'connect-redis';
import type { Request, RequestHandler } from 'express';
import session from 'express-session';
import type { Config } from '../config';
import type { AppContext } from '../context';

/** The session cookie's name (httpOnly; the XSRF cookie is the readable one). */
export const SESSION_COOKIE_NAME = 'imagestudio.sid';

/** Secure cookies whenever the app is served over HTTPS; behind a TLS proxy this needs TRUST_PROXY. */
export function secureCookies(config: Config): boolean | 'auto' {
  return config.APP_URL.startsWith('https:') ? true : 'auto';
}

/**
 * The paths that read or write a session: the API and the operators' queue board. The built client's files and
 * pages do not: a Redis read per file saved, and no file request answers with a session cookie.
 */
const SESSION_PATHS = /^\/(api|admin\/queues)(\/|$)/;

/** Runs `handler` only on a path that has sessions (SESSION_PATHS); every other request passes straight on. */
export function onSessionPaths(handler: RequestHandler): RequestHandler {
  return (req, res, next) => (SESSION_PATHS.test(req.path) ? handler(req, res, next) : next());
}

/** How long a guest's session (an XSRF token before signing in, signing up or resetting) may live unused. */
export const ANONYMOUS_SESSION_MS = 3600 * 1000;

/**
 * Gives a session without a signed-in user a one-hour cookie, which connect-redis turns into a one-hour
 * key TTL; its expiry is not refreshed (see refreshSessionExpiry), so an abandoned one is gone within an
 * hour of its last change instead of the SESSION_IDLE_HOURS of a login.
 */
export function limitAnonymousSession(req: Request): void {
  if (!req.user && req.session) req.session.cookie.maxAge = ANONYMOUS_SESSION_MS;
}

/** Milliseconds of a "remember me" cookie; it moves forward with each expiry refresh (refreshSessionExpiry). */
export function rememberMaxAgeMs(config: Config): number {
  return config.SESSION_REMEMBER_DAYS * 24 * 3600 * 1000;
}

/**
 * express-session on Redis (connect-redis with the app's node-redis client); app.ts adds passport after it.
 * Without "remember me" the cookie is a browser-session cookie and Redis keeps the session for
 * SESSION_IDLE_HOURS after the last request; with it, the cookie and the session last
 * SESSION_REMEMBER_DAYS after the last request (connect-redis takes the TTL from the cookie's expiry).
 */
export function sessionMiddleware(ctx: AppContext): RequestHandler[] {
  const { config } = ctx;
  // The store's per-request touch is off: refreshSessionExpiry re-saves instead, at most once an interval.
  const store = new RedisStore({
    client: ctx.redis,
    prefix: 'sess:',
    ttl: Math.round(config.SESSION_IDLE_HOURS * 3600),
    disableTouch: true,
  });
  return [
    session({
      name: SESSION_COOKIE_NAME,
      secret: config.SESSION_SECRET,
      store,
      resave: false,
      saveUninitialized: false,
      // Not rolling: the cookie is re-sent only when the session is saved (sign-in, and refreshSessionExpiry's
      // at most once an interval), which moves a remembered cookie's expiry forward as often as Redis's. Rolling
      // re-sent it on every reply, so a request still in flight from another tab while this one signed in, out
      // or changed its password answered with the replaced session's cookie and undid that change.
      rolling: false,
      cookie: { httpOnly: true, sameSite: 'lax', secure: secureCookies(config), path: '/' },
    }),
    refreshSessionExpiry(config.SESSION_REFRESH_INTERVAL_S * 1000),
  ];
}

declare module 'express-session' {
  interface SessionData {
    /** Epoch ms of the last save that pushed the session's Redis expiry forward. */
    refreshedAt?: number;
  }
}

/**
 * Keeps the sliding expiry (idle timeout, or the rolling 30 days of "remember me") while writing to Redis
 * at most once per `intervalMs` per session: a session older than that is marked changed, which makes
 * express-session save it with a fresh TTL and re-send a remembered cookie with the new expiry. Only signed-in sessions are refreshed (passport keeps the
 * user under `passport`); anonymous ones keep the hour they were given.
 */
function refreshSessionExpiry(intervalMs: number): RequestHandler {
  return (req, _res, next) => {
    const s = req.session as (typeof req.session & { passport?: unknown }) | undefined;
    if (s?.passport && Date.now() - (s.refreshedAt ?? 0) >= intervalMs) s.refreshedAt = Date.now();
    next();
  };
}

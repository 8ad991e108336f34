import { timingSafeEqual } from 'node:crypto';
import cookieParser from 'cookie-parser';
import { type Request, type RequestHandler, type Response } from 'express';
import { csrfSync } from 'csrf-sync';
import { CSRF_COOKIE_NAME, CSRF_HEADER_NAME } from '@imagestudio/contracts';
import type { AppContext } from '../context';
import { AppError } from '../lib/errors';
import { sendOk } from './envelope';
import { consumeOrThrow } from './rate-limits';
import { limitAnonymousSession, secureCookies } from './session';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The one route without a token: Stripe signs its webhook instead (and it is mounted before sessions). */
const EXEMPT = new Set(['POST /api/webhooks/stripe']);
/** GET /api/csrf, matched as Express matches a route (a trailing slash and any letter case allowed). */
const CSRF_PATH = /^\/api\/csrf\/?$/i;

const sync = csrfSync({
  size: 32,
  getTokenFromRequest: (req) => {
    const value = req.headers[CSRF_HEADER_NAME];
    return typeof value === 'string' ? value : undefined;
  },
});

/** The 403 of a failed CSRF check (docs/api-conventions.md#csrf). */
export const csrfInvalid = () => new AppError('csrf_invalid', 'CSRF token mismatch.');

/** Same token as the session's, compared in constant time (csrf-sync's own check uses ===). */
function headerMatchesSession(req: Request): boolean {
  const given = sync.getTokenFromRequest(req);
  const stored = req.session ? sync.getTokenFromState(req) : undefined;
  if (typeof given !== 'string' || typeof stored !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A present Origin must be the app's own (APP_URL) or the origin the request was addressed to. */
function originAllowed(req: Request, appOrigin: string): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return origin === appOrigin || origin === `${req.protocol}://${req.get('host')}`;
}

function setTokenCookie(res: Response, token: string, secure: boolean | 'auto', req: Request): void {
  res.cookie(CSRF_COOKIE_NAME, token, {
    httpOnly: false,
    sameSite: 'lax',
    secure: secure === 'auto' ? req.secure : secure,
    path: '/',
  });
}

/**
 * Gives the (new) session a fresh token and sends it in the XSRF-TOKEN cookie. Call after anything that
 * replaces the session (login, logout, registration, password change), since the old token went with it.
 */
export function reissueCsrfToken(ctx: Pick<AppContext, 'config'>, req: Request, res: Response): string {
  const token = sync.generateToken(req, true);
  limitAnonymousSession(req);
  setTokenCookie(res, token, secureCookies(ctx.config), req);
  return token;
}

/**
 * The 403 for a GET that changes state (the password-reset link) sent without the session's token,
 * e.g. by another site's <img> or link; the same check as on every POST.
 */
export const requireCsrfToken: RequestHandler = (req, _res, next) => {
  next(headerMatchesSession(req) ? undefined : csrfInvalid());
};

/**
 * Session-bound XSRF protection (csrf-sync's synchronizer token). Every POST/PUT/PATCH/DELETE must echo
 * the session's token in X-XSRF-TOKEN, compared with the session's copy (never with the cookie), and a
 * cross-site Origin is refused outright. A GET re-sends the readable XSRF-TOKEN cookie of a session that
 * has a token, but never creates one: an anonymous page view or API read must not cost a Redis session.
 * A guest about to sign in, sign up or reset a password asks GET /api/csrf, which starts a short-lived
 * anonymous session holding its token (the client does so before its first mutating request).
 */
export function csrfMiddleware(ctx: AppContext): RequestHandler[] {
  const appOrigin = new URL(ctx.config.APP_URL).origin;
  const secure = secureCookies(ctx.config);
  const protect: RequestHandler = (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) {
      const stored = req.method === 'GET' && req.session ? sync.getTokenFromState(req) : undefined;
      if (typeof stored === 'string' && req.cookies?.[CSRF_COOKIE_NAME] !== stored)
        setTokenCookie(res, stored, secure, req);
      return next();
    }
    if (EXEMPT.has(`${req.method} ${req.path}`)) return next();
    if (!originAllowed(req, appOrigin) || !headerMatchesSession(req)) return next(csrfInvalid());
    next();
  };
  // GET /api/csrf hands out the session's token (made on first call). Answered here rather than by a router of
  // its own, which every request would have walked through.
  // A call that would start a new guest session counts against its address, so a loop of calls cannot fill
  // Redis with hour-long sessions; a browser that already has one is answered without counting.
  const newSessions = ctx.services.rateLimits.named(
    'csrfSessionPerIp',
    ctx.config.CSRF_SESSIONS_PER_IP_PER_10_MIN,
    600,
  );
  const issue = async (req: Request, res: Response) => {
    const stored = sync.getTokenFromState(req);
    if (typeof stored !== 'string') await consumeOrThrow(newSessions, req.ip ?? 'unknown');
    const token = typeof stored === 'string' ? stored : sync.generateToken(req);
    limitAnonymousSession(req);
    if (req.cookies?.[CSRF_COOKIE_NAME] !== token) setTokenCookie(res, token, secure, req);
    sendOk(res);
  };
  const protectOrIssue: RequestHandler = (req, res, next) =>
    (req.method === 'GET' || req.method === 'HEAD') && CSRF_PATH.test(req.path)
      ? issue(req, res).catch(next)
      : protect(req, res, next);
  return [cookieParser(), protectOrIssue];
}

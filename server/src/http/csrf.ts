import { timingSafeEqual } from 'node:crypto';
import cookieParser from 'cookie-parser';
import type { Request, RequestHandler, Response } from 'express';
import { csrfSync } from 'csrf-sync';
import { CSRF_COOKIE_NAME, CSRF_HEADER_NAME } from '@imagestudio/contracts';
import type { AppContext } from '../context';
import { AppError } from '../lib/errors';
import { secureCookies } from './session';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The one route without a token: Stripe signs its webhook instead (and it is mounted before sessions). */
const EXEMPT = new Set(['POST /api/webhooks/stripe']);
/** Probes that must not create a session (and so a token) on every call. */
const NO_TOKEN_PATHS = new Set(['/api/health', '/api/ready', '/api/metrics']);

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
  res.cookie(CSRF_COOKIE_NAME, token, { httpOnly: false, sameSite: 'lax', secure: secure === 'auto' ? req.secure : secure, path: '/' });
}

/**
 * Gives the (new) session a fresh token and sends it in the XSRF-TOKEN cookie. Call after anything that
 * replaces the session (login, logout, registration, password change), since the old token went with it.
 */
export function reissueCsrfToken(ctx: AppContext, req: Request, res: Response): string {
  const token = sync.generateToken(req, true);
  setTokenCookie(res, token, secureCookies(ctx.config), req);
  return token;
}

/**
 * Session-bound XSRF protection (csrf-sync's synchronizer token). GETs get the session's token in the
 * readable XSRF-TOKEN cookie when the browser lacks it; every POST/PUT/PATCH/DELETE must echo it in
 * X-XSRF-TOKEN, compared with the session's copy (never with the cookie), and a cross-site Origin is
 * refused outright.
 */
export function csrfMiddleware(ctx: AppContext): RequestHandler[] {
  const appOrigin = new URL(ctx.config.APP_URL).origin;
  const secure = secureCookies(ctx.config);
  const protect: RequestHandler = (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) {
      if (req.method === 'GET' && !NO_TOKEN_PATHS.has(req.path)) {
        const stored = sync.getTokenFromState(req);
        const token = typeof stored === 'string' ? stored : sync.generateToken(req);
        if (req.cookies?.[CSRF_COOKIE_NAME] !== token) setTokenCookie(res, token, secure, req);
      }
      return next();
    }
    if (EXEMPT.has(`${req.method} ${req.path}`)) return next();
    if (!originAllowed(req, appOrigin) || !headerMatchesSession(req)) return next(csrfInvalid());
    next();
  };
  return [cookieParser(), protect];
}

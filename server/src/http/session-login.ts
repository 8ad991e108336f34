import type { Request, Response } from 'express';
import type { AppContext } from '../context';
import { reissueCsrfToken } from './csrf';
import { rememberMaxAgeMs } from './session';

/**
 * Signs the user in on a brand-new session (passport regenerates it: no fixation), makes the cookie
 * persistent for "remember me", and issues the new session's XSRF token.
 */
export async function startSession(
  ctx: Pick<AppContext, 'config'>,
  req: Request,
  res: Response,
  user: Express.User,
  remember: boolean,
): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    req.logIn(user, { session: true, keepSessionInfo: false }, (err) => (err ? reject(err) : resolve())),
  );
  // The regenerated session has a browser-session cookie; remembered ones get an expiry. Both roll.
  if (remember) req.session.cookie.maxAge = rememberMaxAgeMs(ctx.config);
  // The new session is written with a full TTL, so no expiry refresh is due for an interval. Without this the
  // first request after sign-in re-saved the session at its end; racing a sign-out, that save wrote the
  // signed-out session back to Redis.
  req.session.refreshedAt = Date.now();
  reissueCsrfToken(ctx, req, res);
}

/** Signs out (passport clears the user and regenerates the session, destroying the old one) and re-issues the token. */
export async function endSession(ctx: Pick<AppContext, 'config'>, req: Request, res: Response): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    req.logout({ keepSessionInfo: false }, (err) => (err ? reject(err) : resolve())),
  );
  reissueCsrfToken(ctx, req, res);
}

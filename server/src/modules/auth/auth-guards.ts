import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ACCOUNT_MESSAGES } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { AppError, unauthenticated } from '../../lib/errors';
import { readAccountSettings } from './account-settings';
import type { UserRow } from '../users/users.repository';

/** The signed-in user as request handlers see it (loaded fresh from Postgres on every request). */
export type CurrentUser = Omit<UserRow, 'password_hash'>;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // passport types req.user as Express.User; ours is the users row without its password hash.
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface User extends CurrentUser {}
  }
}

/** The signed-in user; throws the 401 envelope for guests (use after requireUser, or on its own). */
export function currentUser(req: Request): CurrentUser {
  if (!req.user) throw unauthenticated();
  return req.user;
}

/** 401 `{code:"unauthenticated", message:"Unauthenticated."}` unless a user is signed in. */
export const requireUser: RequestHandler = (req, _res, next) => {
  next(req.user ? undefined : unauthenticated());
};

/** The 403 a user with an unverified email gets from tools and checkout. */
export const emailNotVerified = () => new AppError('email_not_verified', ACCOUNT_MESSAGES.emailNotVerified);

/**
 * requireUser, then 403 `email_not_verified` when the setting require_email_verification is on (the
 * default) and the user has not verified their email. Use on every route that spends tokens or pays.
 */
export function requireVerifiedEmail(ctx: AppContext): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!req.user) return next(unauthenticated());
    if (req.user.email_verified_at) return next();
    readAccountSettings(ctx).then(
      (settings) => next(settings.requireEmailVerification ? emailNotVerified() : undefined),
      next,
    );
  };
}

import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ACCOUNT_MESSAGES } from '@imagestudio/contracts';
import { AppError, unauthenticated } from '../../lib/errors';
import type { CatalogDeps } from '../catalog';
import { readAccountSettings } from './account-settings';

/** The 403 a user with an unverified email gets from tools and checkout. */
export const emailNotVerified = () => new AppError('email_not_verified', ACCOUNT_MESSAGES.emailNotVerified);

/**
 * requireUser, then 403 `email_not_verified` when the setting require_email_verification is on (the
 * default) and the user has not verified their email. Use on every route that spends tokens or pays.
 */
export function requireVerifiedEmail(ctx: CatalogDeps): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!req.user) return next(unauthenticated());
    if (req.user.email_verified_at) return next();
    readAccountSettings(ctx).then(
      (settings) => next(settings.requireEmailVerification ? emailNotVerified() : undefined),
      next,
    );
  };
}

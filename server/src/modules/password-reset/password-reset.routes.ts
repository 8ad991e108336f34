import { Router } from 'express';
import { ACCOUNT_MESSAGES, routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { requireCsrfToken } from '../../http/csrf';
import { consumeOrThrow } from '../../http/rate-limits';
import { okWith } from '../../http/route';
import { mountRoutes } from '../../http/route-table';
import { passwordChangeOrigin } from '../users';
import { requestPasswordReset, resetPassword } from './password-reset.service';

/** GET or POST /api/user/request-password-restore and PUT /api/user/restore-password. */
export function passwordResetRouter(ctx: AppContext) {
  const router = Router();
  const limits = ctx.services.rateLimits.fixed;
  const r = routes.account;

  const request = async (email: string) => {
    await consumeOrThrow(limits.resetPerEmail, email.toLowerCase());
    requestPasswordReset(ctx, email);
    return okWith(undefined, { message: ACCOUNT_MESSAGES.resetLinkSent });
  };
  return mountRoutes(router, r, {
    // The GET sends an email, so another site must not be able to trigger it with a link or an <img>.
    requestPasswordResetLink: { handler: ({ query }) => request(query.email), before: [requireCsrfToken] },
    requestPasswordReset: ({ body }) => request(body.email),

    restorePassword: async ({ req, body }) => {
      await resetPassword(ctx, body, passwordChangeOrigin(req));
      return okWith(undefined, { message: ACCOUNT_MESSAGES.passwordReset });
    },
  });
}

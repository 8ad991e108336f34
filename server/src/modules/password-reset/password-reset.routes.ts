import { Router, type Request, type Response } from 'express';
import { ACCOUNT_MESSAGES, resetRequestSchema, restorePasswordSchema } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { requireCsrfToken } from '../../http/csrf';
import { sendOk } from '../../http/envelope';
import { consumeOrThrow } from '../../http/rate-limits';
import { requestPasswordReset, resetPassword } from './password-reset.service';

/** GET or POST /api/user/request-password-restore and PUT /api/user/restore-password. */
export function passwordResetRouter(ctx: AppContext): Router {
  const router = Router();
  const limits = ctx.services.rateLimits.fixed;

  const request = async (req: Request, res: Response) => {
    const { email } = resetRequestSchema.parse(req.method === 'GET' ? req.query : req.body);
    await consumeOrThrow(limits.resetPerEmail, email.toLowerCase());
    requestPasswordReset(ctx, email);
    sendOk(res, undefined, { message: ACCOUNT_MESSAGES.resetLinkSent });
  };
  // The GET sends an email, so another site must not be able to trigger it with a link or an <img>.
  router.get('/user/request-password-restore', requireCsrfToken, request);
  router.post('/user/request-password-restore', request);

  router.put('/user/restore-password', async (req, res) => {
    await resetPassword(ctx, restorePasswordSchema.parse(req.body));
    sendOk(res, undefined, { message: ACCOUNT_MESSAGES.passwordReset });
  });

  return router;
}

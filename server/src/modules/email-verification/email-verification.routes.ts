import { Router } from 'express';
import { z } from 'zod';
import { ACCOUNT_MESSAGES } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { currentUser, requireUser } from '../../http/current-user';
import { sendOk } from '../../http/envelope';
import { consumeOrThrow } from '../../http/rate-limits';
import { resendVerification, verifyEmailLink } from './email-verification.service';

const linkSchema = z.object({
  id: z.string().uuid(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  expires: z.string().regex(/^\d{1,12}$/),
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});

/** The signed verification link (a browser navigation) and the resend call. */
export function emailVerificationRouter(ctx: AppContext): Router {
  const router = Router();
  const limits = ctx.services.rateLimits.fixed;

  router.get('/email/verify/:id/:hash', async (req, res) => {
    const parsed = linkSchema.safeParse({ ...req.params, ...req.query });
    const outcome = parsed.success ? await verifyEmailLink(ctx, parsed.data) : 'invalid';
    res.redirect(
      302,
      outcome === 'invalid'
        ? '/email-verification?invalid=1'
        : outcome === 'verified'
          ? '/email/verify/success'
          : '/email/verify/already-success',
    );
  });

  router.post('/email/verification-notification', requireUser, async (req, res) => {
    const user = currentUser(req);
    if (user.email_verified_at) return sendOk(res, undefined, { message: ACCOUNT_MESSAGES.alreadyVerified });
    // the cool-down is told in minutes, so the page can say when the button works again
    await consumeOrThrow(limits.verificationPerUser, user.id, (ms) =>
      ACCOUNT_MESSAGES.verificationCooldown.replace('{n}', String(Math.max(1, Math.ceil(ms / 60_000)))),
    );
    await resendVerification(ctx, user);
    sendOk(res, undefined, { message: ACCOUNT_MESSAGES.verificationSent });
  });

  return router;
}

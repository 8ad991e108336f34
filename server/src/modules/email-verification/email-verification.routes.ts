import { Router } from 'express';
import { z } from 'zod';
import { ACCOUNT_MESSAGES, routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/current-user';
import { consumeOrThrow } from '../../http/rate-limits';
import { okWith } from '../../http/route';
import { mountRoutes } from '../../http/route-table';
import { resendVerification, verifyEmailLink } from './email-verification.service';

const linkSchema = z.object({
  id: z.string().uuid(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  expires: z.string().regex(/^\d{1,12}$/),
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});

/** The signed verification link (a browser navigation) and the resend call. */
export function emailVerificationRouter(ctx: AppContext) {
  const router = Router();
  const limits = ctx.services.rateLimits.fixed;

  return mountRoutes(router, routes.account, {
    // A link that does not parse is the "invalid link" page, not a 422: a person followed it.
    verifyEmail: async ({ req, res, params }) => {
      const parsed = linkSchema.safeParse({ ...params, ...req.query });
      const outcome = parsed.success ? await verifyEmailLink(ctx, parsed.data) : 'invalid';
      res.redirect(
        302,
        outcome === 'invalid'
          ? '/email-verification?invalid=1'
          : outcome === 'verified'
            ? '/email/verify/success'
            : '/email/verify/already-success',
      );
    },

    resendVerification: async ({ req }) => {
      const user = currentUser(req);
      if (user.email_verified_at) return okWith(undefined, { message: ACCOUNT_MESSAGES.alreadyVerified });
      // the cool-down is told in minutes, so the page can say when the button works again
      await consumeOrThrow(limits.verificationPerUser, user.id, (ms) =>
        ACCOUNT_MESSAGES.verificationCooldown.replace('{n}', String(Math.max(1, Math.ceil(ms / 60_000)))),
      );
      await resendVerification(ctx, user);
      return okWith(undefined, { message: ACCOUNT_MESSAGES.verificationSent });
    },
  });
}

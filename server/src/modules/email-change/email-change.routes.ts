import { Router } from 'express';
import { z } from 'zod';
import { EMAIL_CHANGE_MESSAGES, emailChangeSchema } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { currentUser, requireUser } from '../auth/auth-guards';
import { sendOk } from '../../http/envelope';
import { consumeOrThrow } from '../../http/rate-limits';
import { confirmEmailChange, requestEmailChange } from './email-change.service';

/** Change requests per user per hour (each mails a link to an address the customer typed). */
const REQUESTS_PER_HOUR = 6;

const confirmSchema = z.object({ token: z.string().regex(/^[\w-]{43}$/) });

/**
 * POST /api/user/change-email (signed in; CSRF as every POST) mails a link to the new address; the link,
 * GET /api/user/change-email/confirm?token=, makes the change and sends the browser to the profile, which
 * says how it went (`email_change=changed|invalid|taken`).
 */
export function emailChangeRouter(ctx: AppContext): Router {
  const router = Router();
  const perUser = ctx.services.rateLimits.named('emailChangePerUser', REQUESTS_PER_HOUR, 60 * 60);

  router.post('/user/change-email', requireUser, async (req, res) => {
    const input = emailChangeSchema.parse(req.body);
    const user = currentUser(req);
    await consumeOrThrow(perUser, user.id);
    await requestEmailChange(ctx, user.id, input);
    sendOk(res, undefined, { message: EMAIL_CHANGE_MESSAGES.linkSent });
  });

  router.get('/user/change-email/confirm', async (req, res) => {
    const parsed = confirmSchema.safeParse(req.query);
    const outcome = parsed.success ? await confirmEmailChange(ctx, parsed.data.token) : 'invalid';
    res.redirect(302, `/account/profile?email_change=${outcome}`);
  });

  return router;
}

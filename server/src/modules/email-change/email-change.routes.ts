import { Router } from 'express';
import { EMAIL_CHANGE_MESSAGES, emailChangeConfirmSchema, routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/current-user';
import { okWith } from '../../http/route';
import { mountRoutes } from '../../http/route-table';
import { consumeOrThrow } from '../../http/rate-limits';
import { confirmEmailChange, requestEmailChange } from './email-change.service';

/** Change requests per user per hour (each mails a link to an address the customer typed). */
const REQUESTS_PER_HOUR = 6;

/**
 * POST /api/user/change-email (signed in; CSRF as every POST) mails a link to the new address; the link,
 * GET /api/user/change-email/confirm?token=, makes the change and sends the browser to the profile, which
 * says how it went (`email_change=changed|invalid|taken`).
 */
export function emailChangeRouter(ctx: AppContext) {
  const router = Router();
  const perUser = ctx.services.rateLimits.named('emailChangePerUser', REQUESTS_PER_HOUR, 60 * 60);

  return mountRoutes(router, routes.account, {
    changeEmail: async ({ req, body }) => {
      const user = currentUser(req);
      await consumeOrThrow(perUser, user.id);
      await requestEmailChange(ctx, user.id, body);
      return okWith(undefined, { message: EMAIL_CHANGE_MESSAGES.linkSent });
    },

    // A link from a mail: a bad token is an answer on the profile page, never an error page.
    confirmEmailChange: async ({ req, res }) => {
      const parsed = emailChangeConfirmSchema.safeParse(req.query);
      const outcome = parsed.success ? await confirmEmailChange(ctx, parsed.data.token) : 'invalid';
      res.redirect(302, `/account/profile?email_change=${outcome}`);
    },
  });
}

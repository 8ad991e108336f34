import { Router, type Request, type RequestHandler, type Response } from 'express';
import { ACCOUNT_MESSAGES, routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { type CurrentUser, usersRepository as users, toCurrentUser } from '../users';
import { okWith } from '../../http/route';
import { mountRoutes } from '../../http/route-table';
import { validationError } from '../../lib/errors';
import { consumeOrThrow, refund } from '../../http/rate-limits';
import { assertRegistrationOpen, registerUser } from './auth.service';
import { rememberDevice, trustedDevice } from './device-cookie';
import { endSession, startSession } from '../../http/session-login';
import { getSettings, requestLanguage } from '../catalog';
import { ACCOUNT_DISABLED } from './auth.passport';

const TOO_MANY_LOGINS = 'Too many login attempts. Please try again later.';

/**
 * The answer to a disabled account whose password was right: its state and where to write. `{email}` stays a
 * placeholder in the English text so the `server.*` strings translate it with any support address.
 */
const ACCOUNT_DISABLED_MESSAGE = 'This account has been disabled. Please contact support at {email}.';

/** Runs passport's local strategy: the user, 'disabled' (right password, disabled account), or null. */
function authenticateLocal(ctx: AppContext, req: Request, res: Response): Promise<CurrentUser | 'disabled' | null> {
  return new Promise((resolve, reject) => {
    ctx.services.passport.authenticate(
      'local',
      { session: false },
      (err: unknown, user: CurrentUser | false, info?: { message?: string }) => {
        if (err) reject(err);
        else resolve(user || (info?.message === ACCOUNT_DISABLED ? 'disabled' : null));
      },
    )(req, res, reject);
  });
}

/** POST /register, /login, /logout and GET /is-auth. */
export function authRouter(ctx: AppContext) {
  const router = Router();
  const limits = ctx.services.rateLimits.fixed;
  const r = routes.account;

  // Sign-up switched off answers 403 before the form is looked at.
  const registrationOpen: RequestHandler = (_req, _res, next) => {
    assertRegistrationOpen(ctx).then(() => next(), next);
  };

  return mountRoutes(router, r, {
    isAuth: ({ req }) =>
      okWith(undefined, { authenticated: Boolean(req.user), emailVerified: Boolean(req.user?.email_verified_at) }),

    register: {
      handler: async ({ req, res, body: input }) => {
        const ipKey = req.ip ?? 'unknown';
        // Reserved before the account is created (see consumeOrThrow); a refused registration gives it back.
        await consumeOrThrow(limits.registerPerIp, ipKey);
        const { code: lang } = await requestLanguage(ctx, req);
        const user = await registerUser(ctx, input, undefined, lang).catch(async (err: unknown) => {
          await refund(limits.registerPerIp, ipKey);
          throw err;
        });
        await startSession(ctx, req, res, toCurrentUser(user), false);
        return okWith(undefined, { emailVerified: false });
      },
      before: [registrationOpen],
    },

    login: async ({ req, res, body: input }) => {
      const account = input.username.trim().toLowerCase();
      // Every attempt is reserved before the password is verified, so a burst of concurrent guesses
      // verifies at most the limit. A browser that signed in to this account before (device cookie) has
      // its own consecutive-failure count and is not held by the account-wide hourly limit, which
      // guesses from elsewhere may have used up; any other attempt counts against both.
      const device = trustedDevice(ctx, req, account);
      const consecutiveKey = device ? `device:${device}` : `${account}|${req.ip ?? 'unknown'}`;
      await Promise.all([
        consumeOrThrow(limits.loginConsecutive, consecutiveKey, TOO_MANY_LOGINS),
        device ? undefined : consumeOrThrow(limits.loginPerAccount, account, TOO_MANY_LOGINS),
      ]);
      // Later emails use the customer's language. lang_id stays in the body: the reply's messages are
      // translated from it when the reply is sent.
      const { code: lang } = await requestLanguage(ctx, req);
      req.body = {
        username: input.username,
        password: input.password,
        lang_id: (req.body as { lang_id?: unknown }).lang_id,
      };
      const user = await authenticateLocal(ctx, req, res);
      if (user === 'disabled') {
        const { support_email } = await getSettings(ctx);
        throw validationError({ email: [ACCOUNT_DISABLED_MESSAGE.replace('{email}', support_email)] });
      }
      if (!user) throw validationError({ email: [ACCOUNT_MESSAGES.badCredentials] });
      // A success clears the consecutive count and does not count as a failure against the account.
      await Promise.all([
        limits.loginConsecutive.delete(consecutiveKey),
        device ? undefined : refund(limits.loginPerAccount, account),
      ]);
      await startSession(ctx, req, res, user, input.remember);
      rememberDevice(ctx, req, res, account);
      await users.updateLang(ctx.db, user.id, lang);
      return okWith(undefined, { emailVerified: Boolean(user.email_verified_at) });
    },

    logout: async ({ req, res }) => {
      await endSession(ctx, req, res);
    },
  });
}

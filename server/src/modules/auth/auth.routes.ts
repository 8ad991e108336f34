import { Router, type Request, type Response } from 'express';
import { ACCOUNT_MESSAGES, loginSchema, registerSchema } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import type { CurrentUser } from './auth-guards';
import { sendOk } from '../../http/envelope';
import { validationError } from '../../lib/errors';
import { assertNotExhausted, limitersFor, penalize } from '../rate-limits/rate-limits';
import { passportFor, toCurrentUser } from './auth.passport';
import { assertRegistrationOpen, registerUser } from './auth.service';
import { endSession, startSession } from './session-login';

const TOO_MANY_LOGINS = 'Too many login attempts. Please try again later.';

/** Runs passport's local strategy and resolves with the user, or null for wrong credentials. */
function authenticateLocal(ctx: AppContext, req: Request, res: Response): Promise<CurrentUser | null> {
  return new Promise((resolve, reject) => {
    passportFor(ctx).authenticate('local', { session: false }, (err: unknown, user: CurrentUser | false) => {
      if (err) reject(err);
      else resolve(user || null);
    })(req, res, reject);
  });
}

/** POST /register, /login, /logout and GET /is-auth. */
export function authRouter(ctx: AppContext): Router {
  const router = Router();
  const limits = limitersFor(ctx);

  router.get('/is-auth', (req, res) => {
    sendOk(res, undefined, { authenticated: Boolean(req.user), emailVerified: Boolean(req.user?.email_verified_at) });
  });

  router.post('/register', async (req, res) => {
    const settings = await assertRegistrationOpen(ctx);
    const input = registerSchema.parse(req.body);
    const ipKey = req.ip ?? 'unknown';
    await assertNotExhausted(limits.registerPerIp, ipKey);
    const user = await registerUser(ctx, input, settings);
    await penalize(limits.registerPerIp, ipKey);
    await startSession(ctx, req, res, toCurrentUser(user), false);
    sendOk(res, undefined, { emailVerified: false }, 201);
  });

  router.post('/login', async (req, res) => {
    const input = loginSchema.parse(req.body);
    const account = input.username.toLowerCase();
    const pairKey = `${account}|${req.ip ?? 'unknown'}`;
    await assertNotExhausted(limits.loginConsecutive, pairKey, TOO_MANY_LOGINS);
    await assertNotExhausted(limits.loginPerAccount, account, TOO_MANY_LOGINS);
    req.body = { username: input.username, password: input.password };
    const user = await authenticateLocal(ctx, req, res);
    if (!user) {
      await Promise.all([penalize(limits.loginConsecutive, pairKey), penalize(limits.loginPerAccount, account)]);
      throw validationError({ email: [ACCOUNT_MESSAGES.badCredentials] });
    }
    await limits.loginConsecutive.delete(pairKey);
    await startSession(ctx, req, res, user, input.remember);
    sendOk(res, undefined, { emailVerified: Boolean(user.email_verified_at) });
  });

  router.post('/logout', async (req, res) => {
    await endSession(ctx, req, res);
    sendOk(res);
  });

  return router;
}

import { Router } from 'express';
import { ACCOUNT_MESSAGES, changePasswordSchema, profileUpdateSchema } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { currentUser, requireUser } from '../../http/current-user';
import { sendOk } from '../../http/envelope';
import { toCurrentUser } from './current-user';
import { startSession } from '../../http/session-login';
import { changePassword, getProfile, presentProfile, updateProfile } from './users.service';

/** GET/PUT /api/user/profile and POST /api/user/change-password (signed-in users only). */
export function usersRouter(ctx: AppContext): Router {
  const router = Router();

  // The session already loaded the user's row for this request: no second query.
  router.get('/user/profile', requireUser, async (req, res) => {
    sendOk(res, await presentProfile(ctx, currentUser(req)));
  });

  router.put('/user/profile', requireUser, async (req, res) => {
    const input = profileUpdateSchema.parse(req.body);
    await updateProfile(ctx, currentUser(req).id, input);
    sendOk(res, await getProfile(ctx, currentUser(req).id));
  });

  router.post('/user/change-password', requireUser, async (req, res) => {
    const input = changePasswordSchema.parse(req.body);
    const user = await changePassword(ctx, currentUser(req).id, input);
    // The epoch moved on: this session continues on a new id, every other one has ended.
    await startSession(ctx, req, res, toCurrentUser(user), req.session.cookie.maxAge != null);
    sendOk(res, undefined, { message: ACCOUNT_MESSAGES.passwordUpdated });
  });

  return router;
}

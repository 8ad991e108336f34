import { Router } from 'express';
import { ACCOUNT_MESSAGES, routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { okWith } from '../../http/route';
import { mountRoutes } from '../../http/route-table';
import { currentUser } from '../../http/current-user';
import { toCurrentUser } from './current-user';
import { startSession } from '../../http/session-login';
import { passwordChangeOrigin } from './password-change-origin';
import { changePassword, getProfile, presentProfile, updateProfile } from './users.service';

/** GET/PUT /api/user/profile and POST /api/user/change-password (signed-in users only). */
export function usersRouter(ctx: AppContext) {
  const router = Router();
  const r = routes.account;

  return mountRoutes(router, r, {
    // The session already loaded the user's row for this request: no second query.
    profile: ({ req }) => presentProfile(ctx, currentUser(req)),

    updateProfile: async ({ req, body }) => {
      await updateProfile(ctx, currentUser(req).id, body);
      return getProfile(ctx, currentUser(req).id);
    },

    changePassword: async ({ req, res, body }) => {
      const user = await changePassword(ctx, currentUser(req).id, body, passwordChangeOrigin(req));
      // The epoch moved on: this session continues on a new id, every other one has ended.
      await startSession(ctx, req, res, toCurrentUser(user), req.session.cookie.maxAge != null);
      return okWith(undefined, { message: ACCOUNT_MESSAGES.passwordUpdated });
    },
  });
}

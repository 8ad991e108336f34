import { Router } from 'express';
import { ADMIN_PAGE_SIZE, routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoutes } from '../../http/route-table';
import { AppError } from '../../lib/errors';
import { audit, presentAudit } from './admin-audit';
import { currencyHandlers } from './admin-catalog-currencies.routes';
import { packHandlers } from './admin-catalog-packs.routes';
import { catalogHandlers, pageHandlers } from './admin-catalog.routes';
import { confirmedUntil, confirmPassword, requireAdmin } from './admin-guard';
import type { AdminHandlers } from './admin-handlers';
import { jobHandlers } from './admin-jobs.routes';
import { overview } from './admin-overview';
import { userHandlers } from './admin-users.routes';
import * as repo from './admin.repository';

/**
 * The operator console's routes, /api/admin/* (docs/operations.md#operator-console): `admin` in the route
 * table, so each sits behind requireAdmin; money and account changes also need a password confirmed within
 * ADMIN_REAUTH_MS (REAUTH). Changes and views of a customer's data are written to the audit log. One handler map
 * for the whole area, mounted in the order written, so an entry without a handler does not compile
 * (server/src/modules/index.ts).
 */
export function adminRouter(ctx: AppContext) {
  const router = Router();
  // Every other /api/admin path too: a guest gets 401 and a customer the 404 of an unknown path.
  router.use('/admin', requireAdmin);
  return mountRoutes(router, routes.admin, {
    ...sessionHandlers(ctx),
    overview: () => overview(ctx),
    ...jobHandlers(ctx),
    ...userHandlers(ctx),
    ...auditHandlers(ctx),
    ...catalogHandlers(ctx),
    ...packHandlers(ctx),
    ...currencyHandlers(ctx),
    ...pageHandlers(ctx),
  });
}

/** The operator's own console session, and the password confirmation that money and account changes need. */
function sessionHandlers(ctx: AppContext) {
  return {
    session: ({ req }) => {
      const user = req.user!;
      return {
        user: { id: user.id, email: user.email, name: `${user.name} ${user.surname}`.trim() },
        confirmed_until: confirmedUntil(req)?.toISOString() ?? null,
      };
    },

    confirmPassword: async ({ req, body }) => {
      // A failed confirmation is recorded too: someone at an operator's unlocked browser guessing the password.
      const until = await confirmPassword(ctx, req, body.password).catch(async (err: unknown) => {
        const reason = err instanceof AppError ? err.code : 'error';
        await audit(ctx, req, 'session.confirm-password.failed', `user:${req.user!.id}`, { reason });
        throw err;
      });
      await audit(ctx, req, 'session.confirm-password', `user:${req.user!.id}`);
      return { confirmed_until: until.toISOString() };
    },
  } satisfies AdminHandlers;
}

/** The audit log, newest first. */
function auditHandlers(ctx: AppContext) {
  return {
    audit: async ({ query: { page, ...filter } }) => {
      const { rows, total } = await repo.listAudit(ctx.db, filter, page, ADMIN_PAGE_SIZE);
      return {
        items: rows.map(presentAudit),
        page,
        per_page: ADMIN_PAGE_SIZE,
        total,
        last_page: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)),
      };
    },
  } satisfies AdminHandlers;
}

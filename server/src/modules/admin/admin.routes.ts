import { Router } from 'express';
import { ADMIN_PAGE_SIZE, routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoute } from '../../http/route';
import { AppError } from '../../lib/errors';
import { audit, presentAudit } from './admin-audit';
import { addCatalogRoutes } from './admin-catalog.routes';
import { confirmedUntil, confirmPassword, requireAdmin } from './admin-guard';
import { addJobRoutes } from './admin-jobs.routes';
import { overview } from './admin-overview';
import { addUserRoutes } from './admin-users.routes';
import * as repo from './admin.repository';

/**
 * The operator console's routes, /api/admin/* (docs/operations.md#operator-console): `admin` in the route
 * table, so each sits behind requireAdmin; money and account changes also need a password confirmed within
 * ADMIN_REAUTH_MS (requireReauth). Changes and views of a customer's data are written to the audit log.
 */
export function adminRouter(ctx: AppContext): Router {
  const router = Router();
  // Every other /api/admin path too: a guest gets 401 and a customer the 404 of an unknown path.
  router.use('/admin', requireAdmin);
  addSessionRoutes(router, ctx);
  mountRoute(router, routes.admin.overview, () => overview(ctx));
  addJobRoutes(router, ctx);
  addUserRoutes(router, ctx);
  addAuditRoutes(router, ctx);
  addCatalogRoutes(router, ctx);
  return router;
}

/** The operator's own console session, and the password confirmation that money and account changes need. */
function addSessionRoutes(router: Router, ctx: AppContext): void {
  const r = routes.admin;
  mountRoute(router, r.session, ({ req }) => {
    const user = req.user!;
    return {
      user: { id: user.id, email: user.email, name: `${user.name} ${user.surname}`.trim() },
      confirmed_until: confirmedUntil(req)?.toISOString() ?? null,
    };
  });

  mountRoute(router, r.confirmPassword, async ({ req, body }) => {
    // A failed confirmation is recorded too: someone at an operator's unlocked browser guessing the password.
    const until = await confirmPassword(ctx, req, body.password).catch(async (err: unknown) => {
      const reason = err instanceof AppError ? err.code : 'error';
      await audit(ctx, req, 'session.confirm-password.failed', `user:${req.user!.id}`, { reason });
      throw err;
    });
    await audit(ctx, req, 'session.confirm-password', `user:${req.user!.id}`);
    return { confirmed_until: until.toISOString() };
  });
}

/** The audit log, newest first. */
function addAuditRoutes(router: Router, ctx: AppContext): void {
  mountRoute(router, routes.admin.audit, async ({ query: { page, ...filter } }) => {
    const { rows, total } = await repo.listAudit(ctx.db, filter, page, ADMIN_PAGE_SIZE);
    return {
      items: rows.map(presentAudit),
      page,
      per_page: ADMIN_PAGE_SIZE,
      total,
      last_page: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)),
    };
  });
}

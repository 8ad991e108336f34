import { Router, type Request } from 'express';
import { ADMIN_PAGE_SIZE, routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoute } from '../../http/route';
import { AppError } from '../../lib/errors';
import { requestLanguage } from '../catalog';
import { audit, presentAudit } from './admin-audit';
import { addCatalogRoutes } from './admin-catalog.routes';
import { confirmedUntil, confirmPassword, requireAdmin, requireReauth } from './admin-guard';
import { overview } from './admin-overview';
import * as service from './admin.service';
import * as repo from './admin.repository';

const idempotencyKey = (req: Request) => {
  const key = req.get('Idempotency-Key')?.trim();
  return key ? key.slice(0, 200) : undefined;
};

/**
 * The operator console's routes, /api/admin/* (docs/operations.md#operator-console): `admin` in the route
 * table, so each sits behind requireAdmin; money and account changes also need a password confirmed within
 * ADMIN_REAUTH_MS (requireReauth). Changes and views of a customer's data are written to the audit log.
 */
export function adminRouter(ctx: AppContext): Router {
  const router = Router();
  const r = routes.admin;
  const reauth = { before: [requireReauth] };
  // Every other /api/admin path too: a guest gets 401 and a customer the 404 of an unknown path.
  router.use('/admin', requireAdmin);

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

  mountRoute(router, r.overview, () => overview(ctx));

  mountRoute(router, r.jobs, ({ query: { page, ...filter } }) => service.searchJobs(ctx, filter, page));

  mountRoute(router, r.job, async ({ req, params }) => {
    const job = await service.jobDetail(ctx, params.id);
    await audit(ctx, req, 'jobs.view', `job:${job.id}`, { user_id: job.user_id });
    return job;
  });

  mountRoute(
    router,
    r.refundJob,
    async ({ req, params, body: { reason } }) => {
      const result = await service.refundJob(ctx, req.user!.id, params.id, reason);
      await audit(ctx, req, 'jobs.refund', `job:${result.job_id}`, {
        user_id: result.user_id,
        tokens: result.tokens,
        reason,
        before: { refunded: false },
        after: { refunded: true, balance: result.balance },
      });
      return result;
    },
    reauth,
  );

  mountRoute(router, r.cancelJob, async ({ req, params }) => {
    const { before, job } = await service.cancelAnyJob(ctx, params.id);
    await audit(ctx, req, 'jobs.cancel', `job:${job.id}`, {
      before: { status: before },
      after: { status: job.status },
    });
    return job;
  });

  mountRoute(router, r.deposits, ({ query: { page, ...filter } }) => service.searchDeposits(ctx, filter, page));

  mountRoute(router, r.depositReceipt, async ({ req, res, params }) => {
    const language = await requestLanguage(ctx, req);
    const { userId, html } = await service.depositReceipt(ctx, params.id, language.code);
    await audit(ctx, req, 'deposits.receipt', `deposit:${params.id}`, { user_id: userId });
    res.type('html').set('Cache-Control', 'private, no-store').send(html);
  });

  mountRoute(router, r.users, ({ query: { page, q } }) => service.searchUsers(ctx, q, page));

  mountRoute(router, r.user, async ({ req, params }) => {
    const user = await service.userDetail(ctx, params.id);
    await audit(ctx, req, 'users.view', `user:${user.id}`);
    return user;
  });

  mountRoute(
    router,
    r.adjustBalance,
    async ({ req, params, body: input }) => {
      const userId = params.id;
      const result = await service.adjustBalance(ctx, req.user!.id, userId, input, idempotencyKey(req));
      if (result.applied)
        await audit(ctx, req, 'users.adjust', `user:${userId}`, {
          tokens: input.tokens,
          reason: input.reason,
          before: { balance: result.before },
          after: { balance: result.balance },
        });
      return result;
    },
    reauth,
  );

  for (const [route, action, disabled] of [
    [r.disableUser, 'disable', true],
    [r.enableUser, 'enable', false],
  ] as const) {
    mountRoute(
      router,
      route,
      async ({ req, params }) => {
        const change = await service.setDisabled(ctx, req.user!.id, params.id, disabled);
        await audit(ctx, req, `users.${action}`, `user:${params.id}`, change);
        return change.after;
      },
      reauth,
    );
  }

  mountRoute(
    router,
    r.signOutUser,
    async ({ req, params }) => {
      const change = await service.signOutEverywhere(ctx, params.id);
      await audit(ctx, req, 'users.sign-out', `user:${params.id}`, change);
    },
    reauth,
  );

  mountRoute(
    router,
    r.revokeUserKey,
    async ({ req, params }) => {
      const { key } = await service.revokeUserKey(ctx, params.id, params.keyId);
      await audit(ctx, req, 'users.revoke-key', `user:${params.id}`, {
        key,
        before: { revoked: false },
        after: { revoked: true },
      });
    },
    reauth,
  );

  mountRoute(router, r.resendVerification, async ({ req, params }) => {
    const result = await service.resendUserVerification(ctx, params.id);
    await audit(ctx, req, 'users.resend-verification', `user:${params.id}`, result);
  });

  mountRoute(router, r.audit, async ({ query: { page, ...filter } }) => {
    const { rows, total } = await repo.listAudit(ctx.db, filter, page, ADMIN_PAGE_SIZE);
    return {
      items: rows.map(presentAudit),
      page,
      per_page: ADMIN_PAGE_SIZE,
      total,
      last_page: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)),
    };
  });

  addCatalogRoutes(router, ctx);

  return router;
}

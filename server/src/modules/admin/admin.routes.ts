import { Router, type Request } from 'express';
import {
  adminAdjustSchema,
  adminAuditQuerySchema,
  adminDepositsQuerySchema,
  adminConfirmPasswordSchema,
  adminJobsQuerySchema,
  adminRefundSchema,
  adminUsersQuerySchema,
  ADMIN_PAGE_SIZE,
  type AdminSessionView,
} from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { sendOk } from '../../http/envelope';
import { requestLanguage } from '../catalog';
import { audit, presentAudit } from './admin-audit';
import { addCatalogRoutes } from './admin-catalog.routes';
import { confirmedUntil, confirmPassword, requireAdmin, requireReauth } from './admin-guard';
import { overview } from './admin-overview';
import * as service from './admin.service';
import * as repo from './admin.repository';

const param = (req: Request, name: string) => String(req.params[name] ?? '');
const idempotencyKey = (req: Request) => {
  const key = req.get('Idempotency-Key')?.trim();
  return key ? key.slice(0, 200) : undefined;
};

/**
 * The operator console's routes, relative to /api/admin (docs/operations.md#operator-console). Each one
 * sits behind requireAdmin (mounted in front by adminRouter); money and account changes also need a
 * password confirmed within ADMIN_REAUTH_MS (requireReauth). Changes and views of a customer's data are
 * written to the audit log.
 */
export function adminRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/session', (req, res) => {
    const user = req.user!;
    const view: AdminSessionView = {
      user: { id: user.id, email: user.email, name: `${user.name} ${user.surname}`.trim() },
      confirmed_until: confirmedUntil(req)?.toISOString() ?? null,
    };
    sendOk(res, view);
  });

  router.post('/confirm-password', async (req, res) => {
    const { password } = adminConfirmPasswordSchema.parse(req.body);
    const until = await confirmPassword(ctx, req, password);
    await audit(ctx, req, 'session.confirm-password', `user:${req.user!.id}`);
    sendOk(res, { confirmed_until: until.toISOString() });
  });

  router.get('/overview', async (_req, res) => {
    sendOk(res, await overview(ctx));
  });

  router.get('/jobs', async (req, res) => {
    const { page, ...filter } = adminJobsQuerySchema.parse(req.query);
    sendOk(res, await service.searchJobs(ctx, filter, page));
  });

  router.get('/jobs/:id', async (req, res) => {
    const job = await service.jobDetail(ctx, param(req, 'id'));
    await audit(ctx, req, 'jobs.view', `job:${job.id}`, { user_id: job.user_id });
    sendOk(res, job);
  });

  router.post('/jobs/:id/refund', requireReauth, async (req, res) => {
    const { reason } = adminRefundSchema.parse(req.body);
    const result = await service.refundJob(ctx, req.user!.id, param(req, 'id'), reason);
    await audit(ctx, req, 'jobs.refund', `job:${result.job_id}`, {
      user_id: result.user_id,
      tokens: result.tokens,
      reason,
      before: { refunded: false },
      after: { refunded: true, balance: result.balance },
    });
    sendOk(res, result);
  });

  router.post('/jobs/:id/cancel', async (req, res) => {
    const { before, job } = await service.cancelAnyJob(ctx, param(req, 'id'));
    await audit(ctx, req, 'jobs.cancel', `job:${job.id}`, {
      before: { status: before },
      after: { status: job.status },
    });
    sendOk(res, job);
  });

  router.get('/deposits', async (req, res) => {
    const { page, ...filter } = adminDepositsQuerySchema.parse(req.query);
    sendOk(res, await service.searchDeposits(ctx, filter, page));
  });

  router.get('/deposits/:id/receipt', async (req, res) => {
    const language = await requestLanguage(ctx, req);
    const { userId, html } = await service.depositReceipt(ctx, param(req, 'id'), language.code);
    await audit(ctx, req, 'deposits.receipt', `deposit:${param(req, 'id')}`, { user_id: userId });
    res.type('html').set('Cache-Control', 'private, no-store').send(html);
  });

  router.get('/users', async (req, res) => {
    const { page, q } = adminUsersQuerySchema.parse(req.query);
    sendOk(res, await service.searchUsers(ctx, q, page));
  });

  router.get('/users/:id', async (req, res) => {
    const user = await service.userDetail(ctx, param(req, 'id'));
    await audit(ctx, req, 'users.view', `user:${user.id}`);
    sendOk(res, user);
  });

  router.post('/users/:id/adjust', requireReauth, async (req, res) => {
    const input = adminAdjustSchema.parse(req.body);
    const userId = param(req, 'id');
    const result = await service.adjustBalance(ctx, req.user!.id, userId, input, idempotencyKey(req));
    if (result.applied)
      await audit(ctx, req, 'users.adjust', `user:${userId}`, {
        tokens: input.tokens,
        reason: input.reason,
        before: { balance: result.before },
        after: { balance: result.balance },
      });
    sendOk(res, result);
  });

  for (const [path, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    router.post(`/users/:id/${path}`, requireReauth, async (req, res) => {
      const userId = param(req, 'id');
      const change = await service.setDisabled(ctx, req.user!.id, userId, disabled);
      await audit(ctx, req, `users.${path}`, `user:${userId}`, change);
      sendOk(res, change.after);
    });
  }

  router.post('/users/:id/sign-out', requireReauth, async (req, res) => {
    const userId = param(req, 'id');
    const change = await service.signOutEverywhere(ctx, userId);
    await audit(ctx, req, 'users.sign-out', `user:${userId}`, change);
    sendOk(res);
  });

  router.post('/users/:id/api-keys/:keyId/revoke', requireReauth, async (req, res) => {
    const userId = param(req, 'id');
    const { key } = await service.revokeUserKey(ctx, userId, param(req, 'keyId'));
    await audit(ctx, req, 'users.revoke-key', `user:${userId}`, {
      key,
      before: { revoked: false },
      after: { revoked: true },
    });
    sendOk(res);
  });

  router.post('/users/:id/resend-verification', async (req, res) => {
    const userId = param(req, 'id');
    const result = await service.resendUserVerification(ctx, userId);
    await audit(ctx, req, 'users.resend-verification', `user:${userId}`, result);
    sendOk(res);
  });

  router.get('/audit', async (req, res) => {
    const { page, ...filter } = adminAuditQuerySchema.parse(req.query);
    const { rows, total } = await repo.listAudit(ctx.db, filter, page, ADMIN_PAGE_SIZE);
    sendOk(res, {
      items: rows.map(presentAudit),
      page,
      per_page: ADMIN_PAGE_SIZE,
      total,
      last_page: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)),
    });
  });

  addCatalogRoutes(router, ctx);

  return router;
}

/** Mounted under /api with the feature routers: /api/admin/* behind the admin guard. */
export function adminRouter(ctx: AppContext): Router {
  const router = Router();
  router.use('/admin', requireAdmin, adminRoutes(ctx));
  return router;
}

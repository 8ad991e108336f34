import type { Router } from 'express';
import { routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoute } from '../../http/route';
import { requestLanguage } from '../catalog';
import { audit, auditWriter } from './admin-audit';
import { requireReauth } from './admin-guard';
import * as service from './admin.service';

/** The console's jobs and deposits: search, a job's detail, refund and cancel, a deposit's receipt. */
export function addJobRoutes(router: Router, ctx: AppContext): void {
  const r = routes.admin;

  mountRoute(router, r.jobs, ({ query: { page, ...filter } }) => service.searchJobs(ctx, filter, page));

  mountRoute(router, r.job, async ({ req, params }) => {
    const job = await service.jobDetail(ctx, params.id);
    await audit(ctx, req, 'jobs.view', `job:${job.id}`, { user_id: job.user_id });
    return job;
  });

  mountRoute(
    router,
    r.refundJob,
    ({ req, params, body: { reason } }) =>
      service.refundJob(ctx, req.user!.id, params.id, reason, auditWriter(ctx, req, 'jobs.refund')),
    { before: [requireReauth] },
  );

  // Cancelling goes through the jobs module (the queue too): audited once it has succeeded.
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
}

import type { AppContext } from '../../context';
import { requestLanguage } from '../catalog';
import { audit, auditWriter } from './admin-audit';
import { type AdminHandlers, REAUTH } from './admin-handlers';
import * as service from './admin.service';

/** The console's jobs and deposits: search, a job's detail, refund and cancel, a deposit's receipt. */
export function jobHandlers(ctx: AppContext) {
  return {
    jobs: ({ query: { page, ...filter } }) => service.searchJobs(ctx, filter, page),

    job: async ({ req, params }) => {
      const job = await service.jobDetail(ctx, params.id);
      await audit(ctx, req, 'jobs.view', `job:${job.id}`, { user_id: job.user_id });
      return job;
    },

    refundJob: {
      handler: ({ req, params, body: { reason } }) =>
        service.refundJob(ctx, req.user!.id, params.id, reason, auditWriter(ctx, req, 'jobs.refund')),
      before: REAUTH,
    },

    // Cancelling goes through the jobs module (the queue too): audited once it has succeeded.
    cancelJob: async ({ req, params }) => {
      const { before, job } = await service.cancelAnyJob(ctx, params.id);
      await audit(ctx, req, 'jobs.cancel', `job:${job.id}`, {
        before: { status: before },
        after: { status: job.status },
      });
      return job;
    },

    deposits: ({ query: { page, ...filter } }) => service.searchDeposits(ctx, filter, page),

    depositReceipt: async ({ req, res, params }) => {
      const language = await requestLanguage(ctx, req);
      const { userId, html } = await service.depositReceipt(ctx, params.id, language.code);
      await audit(ctx, req, 'deposits.receipt', `deposit:${params.id}`, { user_id: userId });
      res.type('html').set('Cache-Control', 'private, no-store').send(html);
    },
  } satisfies AdminHandlers;
}

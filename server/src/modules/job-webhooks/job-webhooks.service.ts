import { WEBHOOK_SIGNATURE_HEADER } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { webhookSecretFor } from '../api-keys/webhook-secret.service';
import { presentJob } from '../jobs/job-presenter';
import * as jobs from '../jobs/jobs.repository';
import type { BackgroundTask } from '../../lib/background-task';
import { every } from '../../lib/task-lock';
import * as repo from './job-webhooks.repository';
import type { DueWebhook } from './job-webhooks.repository';
import { postWebhook } from './post-webhook';
import { signWebhook } from './signature';

/** Deliveries claimed per pass; each is one POST of at most WEBHOOK_TIMEOUT_MS. */
const BATCH = 20;
/** Longest wait between two tries. */
const MAX_RETRY_DELAY_S = 3600;

/** Remembers the callback of an accepted job; it is sent once the job has ended. */
export async function registerCallback(ctx: AppContext, jobId: string, userId: string, url: string): Promise<void> {
  await repo.insertWebhook(ctx.db, jobId, userId, url);
}

/** When the try after `attempts` failed ones is due, or null once that would leave the retry window. */
export function nextAttemptAt(ctx: AppContext, attempts: number, finishedAt: Date, now = new Date()): Date | null {
  const delayS = Math.min(ctx.config.WEBHOOK_FIRST_RETRY_S * 2 ** (attempts - 1), MAX_RETRY_DELAY_S);
  const next = new Date(now.getTime() + delayS * 1000);
  const giveUpAt = finishedAt.getTime() + ctx.config.WEBHOOK_RETRY_HOURS * 3600_000;
  return next.getTime() > giveUpAt ? null : next;
}

/** One try for one claimed delivery: the job as GET /api/jobs/{id} shows it, signed with the user's secret. */
async function deliver(ctx: AppContext, hook: DueWebhook): Promise<void> {
  const row = await jobs.findById(ctx.db, hook.job_id);
  if (!row) return;
  const body = JSON.stringify(await presentJob(ctx, row, { position: false }));
  const secret = await webhookSecretFor(ctx, hook.user_id);
  const attempts = hook.attempts + 1;
  const outcome = await postWebhook(ctx.config, hook.url, body, {
    'Content-Type': 'application/json',
    'User-Agent': 'ImageStudio-Webhooks/1',
    [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, body, Math.floor(Date.now() / 1000)),
    'Imagestudio-Delivery-Attempt': String(attempts),
  });
  if (outcome.ok) {
    await repo.recordDelivered(ctx.db, hook.job_id, attempts, outcome.status as number);
    return;
  }
  const next = nextAttemptAt(ctx, attempts, hook.finished_at ?? hook.created_at);
  await repo.recordFailure(
    ctx.db,
    hook.job_id,
    attempts,
    { status: outcome.status, error: outcome.error ?? 'failed' },
    next,
  );
  ctx.logger.info(
    { jobId: hook.job_id, attempts, status: outcome.status, error: outcome.error, gaveUp: next === null },
    'job webhook try failed',
  );
}

/** One pass: claims the due deliveries of ended jobs and tries each once; returns how many were tried. */
export async function deliverDueWebhooks(ctx: AppContext): Promise<number> {
  const leaseS = Math.ceil(ctx.config.WEBHOOK_TIMEOUT_MS / 1000) + 30;
  const due = await repo.claimDue(ctx.db, BATCH, leaseS);
  await Promise.all(
    due.map((hook) =>
      deliver(ctx, hook).catch((err: unknown) =>
        ctx.logger.warn({ err, jobId: hook.job_id }, 'job webhook delivery crashed'),
      ),
    ),
  );
  return due.length;
}

/**
 * The sender as a background task of every API process. The state lives in Postgres (job_webhooks),
 * claims use SKIP LOCKED, so several processes share the work without a lock and a restart loses nothing.
 */
export function jobWebhooksTask(ctx: AppContext): BackgroundTask {
  return {
    name: 'job-webhooks',
    start: () =>
      every(
        ctx.config.WEBHOOK_POLL_INTERVAL_MS,
        async () => {
          // Keep going while whole batches come back, so a burst of ended jobs is not spread over many ticks.
          while ((await deliverDueWebhooks(ctx)) === BATCH);
        },
        (err) => ctx.logger.error({ err }, 'job webhook pass failed'),
      ),
  };
}

import { WEBHOOK_SIGNATURE_HEADER } from '@imagestudio/contracts';
import { webhookSecretFor } from '../api-keys';
import { presentJob, jobsRepository as jobs } from '../jobs';
import type { BackgroundTask } from '../../lib/background-task';
import * as repo from './job-webhooks.repository';
import type { DueWebhook } from './job-webhooks.repository';
import { DeliveryPool, type DeliveryEnd, destinationOf } from './delivery-pool';
import { postWebhook } from './post-webhook';
import { signWebhook } from './signature';
import type { JobWebhooksDeps } from './job-webhooks.deps';

/** Longest wait between two tries, and longest pause of a destination that keeps timing out. */
const MAX_RETRY_DELAY_S = 3600;

/** Remembers the callback of an accepted job; it is sent once the job has ended. */
export async function registerCallback(
  ctx: JobWebhooksDeps,
  jobId: string,
  userId: string,
  url: string,
): Promise<void> {
  await repo.insertWebhook(ctx.db, jobId, userId, url);
}

/** When the try after `attempts` failed ones is due, or null once that would leave the retry window. */
export function nextAttemptAt(ctx: JobWebhooksDeps, attempts: number, finishedAt: Date, now = new Date()): Date | null {
  const delayS = Math.min(ctx.config.WEBHOOK_FIRST_RETRY_S * 2 ** (attempts - 1), MAX_RETRY_DELAY_S);
  const next = new Date(now.getTime() + delayS * 1000);
  const giveUpAt = finishedAt.getTime() + ctx.config.WEBHOOK_RETRY_HOURS * 3600_000;
  return next.getTime() > giveUpAt ? null : next;
}

/** One try for one claimed delivery: the job as GET /api/jobs/{id} shows it, signed with the user's secret. */
async function deliver(ctx: JobWebhooksDeps, hook: DueWebhook): Promise<DeliveryEnd> {
  const row = await jobs.findById(ctx.db, hook.job_id);
  if (!row) return 'failed';
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
    return 'delivered';
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
  return outcome.timedOut ? 'timeout' : 'failed';
}

/** How long a destination waits after `streak` timeouts in a row: WEBHOOK_FIRST_RETRY_S, doubling, at most an hour. */
export function destinationPauseMs(ctx: JobWebhooksDeps, streak: number): number {
  const first = ctx.config.WEBHOOK_FIRST_RETRY_S;
  return Math.min(first * 2 ** Math.max(0, streak - 3), MAX_RETRY_DELAY_S) * 1000;
}

/**
 * The sender of one API process: a continuous pool (DeliveryPool) fed from Postgres. Whenever a slot frees,
 * and on every WEBHOOK_POLL_INTERVAL_MS tick, it claims as many due deliveries as it has free slots, skipping
 * the rows of destinations and users already at their limit or paused, and starts each at once. Returns its
 * stop function, which waits for the deliveries in flight.
 */
export function startWebhookSender(ctx: JobWebhooksDeps): () => Promise<void> {
  const pool = new DeliveryPool((streak) => destinationPauseMs(ctx, streak));
  const leaseS = Math.ceil(ctx.config.WEBHOOK_TIMEOUT_MS / 1000) + 30;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let filling: Promise<void> | null = null;
  let again = false;

  const start = (hook: DueWebhook) => {
    const host = destinationOf(hook.url);
    const run = deliver(ctx, hook)
      .catch((err: unknown) => {
        ctx.logger.warn({ err, jobId: hook.job_id }, 'job webhook delivery crashed');
        return 'failed' as const;
      })
      .then((end) => {
        const pause = pool.finish(host, hook.user_id, end);
        if (pause !== undefined) {
          ctx.logger.warn(
            { host, timeoutsInARow: pool.timeoutStreak(host), pauseS: pause / 1000 },
            'job webhook destination paused after repeated timeouts',
          );
        }
      })
      .finally(() => {
        inFlight.delete(run);
        fill();
      });
    inFlight.add(run);
  };

  const claimAndStart = async () => {
    while (!stopped && pool.free > 0) {
      const wanted = pool.free;
      const due = await repo.claimDue(ctx.db, wanted, leaseS, pool.blocked());
      for (const hook of due) {
        if (!stopped && pool.tryStart(destinationOf(hook.url), hook.user_id)) start(hook);
        else {
          const paused = pool.pausedUntil(destinationOf(hook.url));
          await repo.releaseClaim(ctx.db, hook.job_id, paused ? new Date(paused) : new Date());
        }
      }
      if (due.length < wanted) break;
    }
  };

  // One claim at a time; a request to fill while one runs makes it go round once more.
  function fill(): void {
    if (stopped) return;
    if (filling) {
      again = true;
      return;
    }
    filling = (async () => {
      do {
        again = false;
        await claimAndStart();
      } while (again && !stopped);
    })()
      .catch((err: unknown) => ctx.logger.error({ err }, 'job webhook pass failed'))
      .finally(() => {
        filling = null;
      });
  }

  const timer = setInterval(fill, ctx.config.WEBHOOK_POLL_INTERVAL_MS);
  timer.unref();
  fill();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await filling;
    await Promise.all(inFlight);
  };
}

/**
 * The sender as a background task of every API process. The state lives in Postgres (job_webhooks),
 * claims use SKIP LOCKED, so several processes share the work without a lock and a restart loses nothing.
 */
export function jobWebhooksTask(ctx: JobWebhooksDeps): BackgroundTask {
  return { name: 'job-webhooks', start: () => startWebhookSender(ctx) };
}

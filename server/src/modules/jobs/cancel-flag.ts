import { cancelKey } from '@imagestudio/contracts';
import type { JobsDeps } from './jobs.deps';

/** How long a stop request stays readable: longer than any job can wait in the queue and run. */
const CANCEL_FLAG_TTL_S = 24 * 3600;

/**
 * Asks every worker to stop `jobId` at its next step (contracts `cancelKey`, in the queue's Redis, the
 * only Redis a worker reaches). Used for user cancellations and for jobs the server has already ended.
 */
export async function raiseCancelFlag(ctx: JobsDeps, jobId: string): Promise<void> {
  await ctx.queueRedis.set(cancelKey(jobId), '1', { expiration: { type: 'EX', value: CANCEL_FLAG_TTL_S } });
}

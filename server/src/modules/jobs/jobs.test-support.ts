import type supertest from 'supertest';
import type { JobView } from '@imagestudio/contracts';
import { TEST_QUEUE_REDIS_DB, TEST_REDIS_URL } from '@imagestudio/runtime/testing';
import type { TestContext } from '../../test/harness';
import { startTestWorker, type TestWorker, type TestWorkerOptions } from '../../test/test-worker';
import { ledgerSum } from '../ledger';

/** Test support for the jobs and tools tests (not a test file itself). */

/** Options for a test worker consuming this context's queue and writing to its S3 server. */
export function workerOptions(t: TestContext, extra: Partial<TestWorkerOptions> = {}): TestWorkerOptions {
  return {
    redisUrl: TEST_REDIS_URL,
    queueDb: TEST_QUEUE_REDIS_DB,
    queuePrefix: t.config.QUEUE_PREFIX,
    s3: { endpoint: t.ctx.storage.endpoint, bucket: t.ctx.storage.bucket },
    ...extra,
  };
}

export function workerFor(t: TestContext, extra: Partial<TestWorkerOptions> = {}): Promise<TestWorker> {
  return startTestWorker(workerOptions(t, extra));
}

/** Polls `check` until it returns a value (not undefined) or the time is up. */
export async function waitFor<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** GET /api/jobs/{id} until the job has one of `statuses`. */
export function waitForStatus(
  agent: supertest.Agent,
  id: string,
  statuses: string[],
  timeoutMs = 10_000,
): Promise<JobView> {
  return waitFor(
    async () => {
      const res = await agent.get(`/api/jobs/${id}`);
      const job = res.body.payload as JobView | undefined;
      return job && statuses.includes(job.status) ? job : undefined;
    },
    timeoutMs,
    `job ${id} to be ${statuses.join('/')}`,
  );
}

/** The user's balance and ledger sum (tenths), and the ledger rows of one job. */
export async function money(t: TestContext, userId: string, jobId?: string) {
  const user = await t.ctx.db('users').where({ id: userId }).first('balance_tenths');
  const rows = jobId
    ? await t.ctx.db('token_ledger').where('idempotency_key', 'like', `job:${jobId}:%`).orderBy('id')
    : [];
  return {
    balance: Number(user.balance_tenths),
    ledger: await ledgerSum(t.ctx.db, userId),
    keys: rows.map((r: { idempotency_key: string; delta_tenths: string }) => `${r.idempotency_key}=${r.delta_tenths}`),
  };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Queue, createNodeRedisClient } from 'bullmq';
import { QUEUE_NAME, type JobData, type JobName, type JobResult, type JobView } from '@imagestudio/contracts';
import { isolatedTestDatabase, verifiedUser } from '../../test/auth-helpers';
import { createTestContext, type TestContext } from '../../test/harness';
import { applyEntryNow } from '../ledger';
import { recordCompleted, recordFailed } from './finalize.service';
import { startJobEvents } from './job-events';
import { money, waitFor, waitForStatus, workerFor, workerOptions } from './jobs.test-support';
import { reconcileOnce } from './reconciler';
import { expireOldResults } from './retention';
import { withLock } from '../../lib/task-lock';

const generate = (prompt: string) => ({ prompt, size: '1024x1024' });

describe('accepting under load', () => {
  it('accepts exactly 50 of 200 concurrent submissions against a balance for 50', async () => {
    const t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000' });
    const stop = await startJobEvents(t.ctx);
    const w = await workerFor(t, { behaviour: 'noop', concurrency: 8 });
    try {
      const { agent, user } = await verifiedUser(t, { balanceTokens: 50 });
      const replies = await Promise.all(
        Array.from({ length: 200 }, (_, i) => agent.post('/api/tools/generate').send(generate(`load ${i}`))),
      );
      const statuses = replies.map((r) => r.status);
      expect(statuses.filter((s) => s === 202)).toHaveLength(50);
      expect(statuses.filter((s) => s === 402)).toHaveLength(150);
      expect(replies.find((r) => r.status === 402)?.body.message).toBe('Not enough tokens: this needs 1, you have 0.');
      const m = await money(t, user.id);
      expect(m.balance).toBe(0);
      expect(m.ledger).toBe(0);
      expect(await t.ctx.db('image_jobs').where({ user_id: user.id }).count('* as n').first()).toEqual({ n: '50' });
      await waitFor(async () => {
        const open = await t.ctx
          .db('image_jobs')
          .where({ user_id: user.id })
          .whereIn('status', ['queued', 'running'])
          .count('* as n')
          .first();
        return open?.n === '0' ? true : undefined;
      }, 20_000);
      expect((await money(t, user.id)).balance).toBe(0);
    } finally {
      await w.close();
      await stop();
      await t.close();
    }
  });
});

describe('finalising exactly once', () => {
  let t: TestContext;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    // A reconciler with no grace period fails every open job it cannot find in its own queue: it gets a
    // database of its own so it never touches jobs of tests running beside it.
    t = await createTestContext({
      JOB_SUBMIT_RATE_PER_MINUTE: '1000',
      JOB_RECONCILE_GRACE_S: '0',
      DATABASE_URL: await isolatedTestDatabase('jobs_reconciler', { fresh: true }),
    });
    stop = await startJobEvents(t.ctx);
  });
  afterAll(async () => {
    await stop();
    await t.close();
  });

  it('refunds once when the failed event is delivered twice (and a late completion changes nothing)', async () => {
    const w = await workerFor(t, { behaviour: 'fail-unrecoverable' });
    try {
      const { agent, user } = await verifiedUser(t, { balanceTokens: 2 });
      const job = (await agent.post('/api/tools/generate').send(generate('fails')).expect(202)).body.payload as JobView;
      await waitForStatus(agent, job.id, ['failed']);
      const replays = await Promise.all([
        recordFailed(t.ctx, job.id, 'again'),
        recordFailed(t.ctx, job.id, 'again'),
        recordFailed(t.ctx, job.id, 'again'),
      ]);
      expect(replays).toEqual([false, false, false]);
      expect(
        await recordCompleted(t.ctx, job.id, {
          files: [{ key: `results/${user.id}/${job.id}/0.png`, width: 1, height: 1, format: 'png', bytes: 1 }],
          provider: 'cpu',
          timings: {},
        }),
      ).toBe(false);
      const m = await money(t, user.id, job.id);
      expect(m.keys).toEqual([`job:${job.id}:charge=-10`, `job:${job.id}:refund=10`]);
      expect(m.balance).toBe(20);
      expect(((await agent.get(`/api/jobs/${job.id}`)).body.payload as JobView).status).toBe('failed');
    } finally {
      await w.close();
    }
  });

  it('settles two racing failed deliveries with one refund', async () => {
    const { user } = await verifiedUser(t, { balanceTokens: 1 });
    const id = await chargedJobWithoutQueue(t, user.id);
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => recordFailed(t.ctx, id, 'boom')));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect((await money(t, user.id, id)).keys).toEqual([`job:${id}:charge=-10`, `job:${id}:refund=10`]);
  });

  it('gives a job whose worker was killed mid-job exactly one outcome', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 1 });
    const child = spawnWorker(t, { behaviour: 'slow', slowMs: 60_000, lockDuration: 1000, stalledInterval: 500 });
    try {
      await waitForLine(child, 'ready');
      const job = (await agent.post('/api/tools/generate').send(generate('killed')).expect(202)).body
        .payload as JobView;
      await waitFor(async () => {
        const row = await t.ctx.db('image_jobs').where({ id: job.id }).first();
        return row.progress >= 50 ? true : undefined;
      });
      child.kill('SIGKILL');
      const rescuer = await workerFor(t, { behaviour: 'succeed', lockDuration: 1000, stalledInterval: 500 });
      try {
        const done = await waitForStatus(agent, job.id, ['succeeded', 'failed'], 20_000);
        expect(done.status).toBe('succeeded');
        expect(rescuer.started).toContain(job.id);
        await reconcileOnce(t.ctx);
        const m = await money(t, user.id, job.id);
        expect(m.keys).toEqual([`job:${job.id}:charge=-10`]);
        expect(m.balance).toBe(0);
      } finally {
        await rescuer.close();
      }
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('reconciles a charged job that never reached the queue: failed and refunded', async () => {
    const { user } = await verifiedUser(t, { balanceTokens: 1 });
    const id = await chargedJobWithoutQueue(t, user.id);
    await reconcileOnce(t.ctx);
    const row = await t.ctx.db('image_jobs').where({ id }).first();
    expect(row).toMatchObject({ status: 'failed', refunded: true });
    expect((await money(t, user.id)).balance).toBe(10);
  });

  it('lets one reconciler run at a time across processes', async () => {
    const order: string[] = [];
    const key = `${t.config.QUEUE_PREFIX}:locks:test`;
    const [a, b] = await Promise.all([
      withLock(t.ctx.redis, key, 5000, async () => {
        order.push('a');
        await new Promise((r) => setTimeout(r, 100));
      }),
      withLock(t.ctx.redis, key, 5000, async () => {
        order.push('b');
      }),
    ]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect(order).toHaveLength(1);
  });
});

describe('the reconciler without the event listener', () => {
  it('records completions it missed and fails jobs stuck running past the limit', async () => {
    const t = await createTestContext({
      JOB_SUBMIT_RATE_PER_MINUTE: '1000',
      JOB_RECONCILE_GRACE_S: '0',
      JOB_RUNNING_TIMEOUT_S: '1',
      DATABASE_URL: await isolatedTestDatabase('jobs_stuck', { fresh: true }),
    });
    const w = await workerFor(t);
    try {
      const { agent, user } = await verifiedUser(t, { balanceTokens: 2 });
      const ok = (await agent.post('/api/tools/generate').send(generate('missed')).expect(202)).body.payload as JobView;
      const stuck = (await agent.post('/api/tools/generate').send(generate('[[hang]]')).expect(202)).body
        .payload as JobView;
      await waitFor(async () => ((await t.ctx.queue.getJobState(ok.id)) === 'completed' ? true : undefined));
      await waitFor(async () => ((await t.ctx.queue.getJobState(stuck.id)) === 'active' ? true : undefined));
      expect((await t.ctx.db('image_jobs').where({ id: ok.id }).first()).status).toBe('queued');
      await reconcileOnce(t.ctx);
      expect((await t.ctx.db('image_jobs').where({ id: ok.id }).first()).status).toBe('succeeded');
      await new Promise((r) => setTimeout(r, 1100));
      await reconcileOnce(t.ctx);
      const row = await t.ctx.db('image_jobs').where({ id: stuck.id }).first();
      expect(row).toMatchObject({
        status: 'failed',
        refunded: true,
        error: 'The image took too long to process. Your tokens have been refunded.',
      });
      expect((await money(t, user.id)).balance).toBe(10);
      // The hung worker sees the cancel flag and lets go of the job.
      await waitFor(async () => ((await t.ctx.queue.getJobState(stuck.id)) === 'failed' ? true : undefined));
    } finally {
      await w.close();
      await t.close();
    }
  });
});

describe('queue Redis down at submit', () => {
  it('answers 503 and loses no tokens when the queue cannot take the job (charge refunded)', async () => {
    const t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000', QUEUE_ADD_TIMEOUT_MS: '1000' });
    const w = await workerFor(t);
    const dead = t.ctx.queueRedis.duplicate();
    await dead.connect();
    const live = t.ctx.queue;
    const broken = new Queue<JobData, JobResult, JobName>(QUEUE_NAME, {
      connection: createNodeRedisClient(dead),
      prefix: t.config.QUEUE_PREFIX,
    });
    broken.on('error', () => undefined);
    try {
      const { agent, user } = await verifiedUser(t, { balanceTokens: 3 });
      await agent.get('/api/tools/status').expect(200);
      dead.destroy();
      t.ctx.queue = broken;
      const res = await agent.post('/api/tools/generate').send(generate('no queue')).expect(503);
      expect(res.body).toMatchObject({
        code: 'service_unavailable',
        message: 'The image service is busy. Please try again.',
      });
      const row = await t.ctx.db('image_jobs').where({ user_id: user.id }).first();
      expect(row).toMatchObject({
        status: 'failed',
        refunded: true,
        error: 'The image service is busy. Please try again.',
      });
      const m = await money(t, user.id, row.id);
      expect(m.keys).toEqual([`job:${row.id}:charge=-10`, `job:${row.id}:refund=10`]);
      expect(m.balance).toBe(30);
      expect(m.ledger).toBe(30);

      // With the whole queue Redis gone, the answer is the same 503 and nothing is charged at all.
      await t.ctx.queueRedis.quit();
      const down = await agent.post('/api/tools/generate').send(generate('no redis')).expect(503);
      expect(down.body.message).toBe('The image service is busy. Please try again.');
      expect((await money(t, user.id)).balance).toBe(30);
    } finally {
      t.ctx.queue = live;
      await broken.close().catch(() => undefined);
      await w.close();
      await t.close();
    }
  });
});

describe('retention', () => {
  it('deletes files of jobs older than RESULT_RETENTION_DAYS and marks them expired', async () => {
    const t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000' });
    const stop = await startJobEvents(t.ctx);
    const w = await workerFor(t);
    try {
      const { agent } = await verifiedUser(t, { balanceTokens: 2 });
      const old = (await agent.post('/api/tools/generate').send(generate('old')).expect(202)).body.payload as JobView;
      const fresh = (await agent.post('/api/tools/generate').send(generate('fresh')).expect(202)).body
        .payload as JobView;
      const oldDone = await waitForStatus(agent, old.id, ['succeeded']);
      await waitForStatus(agent, fresh.id, ['succeeded']);
      await t.ctx
        .db('image_jobs')
        .where({ id: old.id })
        .update({ finished_at: t.ctx.db.raw(`now() - interval '31 days'`) });
      expect(await expireOldResults(t.ctx)).toBeGreaterThanOrEqual(1);
      expect((await fetch(oldDone.results[0]!.url)).status).toBe(404);
      expect((await agent.get(`/api/jobs/${old.id}`).expect(200)).body.payload).toMatchObject({
        expired: true,
        results: [],
        status: 'succeeded',
      });
      expect((await agent.get(`/api/jobs/${fresh.id}`).expect(200)).body.payload.results).toHaveLength(1);
    } finally {
      await w.close();
      await stop();
      await t.close();
    }
  });
});

/** A job row with its charge, as if the API stopped between its commit and the enqueue. */
async function chargedJobWithoutQueue(t: TestContext, userId: string): Promise<string> {
  const id = randomUUID();
  await t.ctx.db.transaction(async (trx) => {
    await trx('image_jobs').insert({ id, user_id: userId, tool: 'generate', params: '{}', cost_tenths: 10 });
  });
  await applyEntryNow(t.ctx.db, { userId, deltaTenths: -10, kind: 'spend', idempotencyKey: `job:${id}:charge` });
  return id;
}

function spawnWorker(t: TestContext, extra: Parameters<typeof workerOptions>[1]): ChildProcess {
  const script = path.join(__dirname, '..', '..', 'test', 'test-worker.ts');
  return spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(workerOptions(t, extra))], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function waitForLine(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes(line)) resolve();
    });
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => reject(new Error(`worker exited (${code}): ${err}`)));
    setTimeout(() => reject(new Error(`worker not ready in 20 s: ${err}`)), 20_000).unref();
  });
}

import type { JobView } from '@imagestudio/contracts';
import { verifiedUser } from '../../test/auth-helpers';
import { createTestContext, type TestContext } from '../../test/harness';
import { startPrivateRedis, type PrivateRedis } from '@imagestudio/runtime/testing';
import { startTestWorker, type TestWorker } from '../../test/test-worker';
import { startJobEvents } from '../jobs/job-events';
import { waitFor, waitForStatus } from '../jobs/jobs.test-support';

/**
 * Redis goes away under a running API (sessions, limits, queue producer, queue-events reader) and a
 * running worker, then comes back: nothing may crash, requests that need Redis answer 503, /api/ready
 * says what is down, and sessions and the queue work again by themselves within seconds.
 */
describe('a Redis outage', () => {
  let redis: PrivateRedis;
  let t: TestContext;
  let stopEvents: () => Promise<void>;
  let worker: TestWorker;
  const crashes: unknown[] = [];
  const onCrash = (err: unknown) => crashes.push(err);

  beforeAll(async () => {
    process.on('uncaughtException', onCrash);
    redis = await startPrivateRedis();
    // An explicit index in the URL, as operators write it; the queue is in QUEUE_REDIS_DB.
    t = await createTestContext({ REDIS_URL: redis.url(0), QUEUE_REDIS_DB: '1', JOB_SUBMIT_RATE_PER_MINUTE: '1000' });
    stopEvents = await startJobEvents(t.ctx);
    worker = await startTestWorker({
      redisUrl: redis.url(0),
      queueDb: 1,
      queuePrefix: t.config.QUEUE_PREFIX,
      s3: { endpoint: t.ctx.storage.endpoint, bucket: t.ctx.storage.bucket },
    });
  });
  afterAll(async () => {
    await worker?.close();
    await stopEvents?.();
    await t?.close();
    await redis?.dispose();
    process.off('uncaughtException', onCrash);
  });

  it('answers 503 while Redis is away and resumes sessions and jobs by itself when it returns', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 10 });
    const before = (await agent.post('/api/tools/generate').send({ prompt: 'before', size: '1024x1024' }).expect(202))
      .body.payload as JobView;
    await waitForStatus(agent, before.id, ['succeeded']);

    await redis.stop();
    const ready = await agent.get('/api/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ code: 'service_unavailable', message: 'Not ready: redis, queue unavailable.' });
    const profile = await agent.get('/api/user/profile');
    expect(profile.status).toBe(503);
    expect(profile.body.code).toBe('service_unavailable');
    expect(profile.headers['retry-after']).toBe('5');
    // Anonymous catalog reads need no Redis and keep working.
    await agent.get('/api/settings').expect(200);
    // Let every connection fail a few reconnects (each one an 'error' event) before Redis returns.
    await new Promise((r) => setTimeout(r, 2500));

    await redis.start();
    const back = Date.now();
    await waitFor(
      async () => ((await agent.get('/api/ready')).status === 200 ? true : undefined),
      10_000,
      '/api/ready 200',
    );
    expect(Date.now() - back).toBeLessThan(5000);
    // The session Redis kept (AOF) still signs this browser in.
    expect((await agent.get('/api/is-auth').expect(200)).body).toMatchObject({ authenticated: true });
    const after = (await agent.post('/api/tools/generate').send({ prompt: 'after', size: '1024x1024' }).expect(202))
      .body.payload as JobView;
    const done = await waitForStatus(agent, after.id, ['succeeded'], 15_000);
    expect(done.status).toBe('succeeded');
    expect(worker.started).toEqual([before.id, after.id]);
    expect(crashes).toEqual([]);
  }, 60_000);
});

import type { JobView } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import { startJobEvents } from '../jobs/job-events';
import { money, waitForStatus, workerFor } from '../jobs/jobs.test-support';
import { solidImage } from '../uploads/test-images';

/**
 * Scaling workers from zero (WORKERS_ON_DEMAND): with no worker running, the API takes an upscaling job and
 * charges it once; the job waits in the queue, where an autoscaler sees it, and runs when a worker comes. A tool
 * outside the list is still refused before charging.
 */
let t: TestContext;
let stopEvents: () => Promise<void>;

beforeAll(async () => {
  t = await createTestContext({ WORKERS_ON_DEMAND: 'upscale' });
  stopEvents = await startJobEvents(t.ctx);
});

afterAll(async () => {
  await stopEvents();
  await t.close();
});

it('queues a job for a tool started on demand while no worker runs, and the first worker to come runs it', async () => {
  const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
  const status = await agent.get('/api/tools/status').expect(200);
  expect(status.body.payload.upscale).toMatchObject({ available: true, provider: null, onDemand: true });
  expect(status.body.payload['remove-background']).toEqual({ available: false, provider: null, models: [] });

  const res = await agent
    .post('/api/tools/upscale')
    .field('factor', '2')
    .attach('image', await solidImage('png'), 'a.png')
    .expect(202);
  const job = res.body.payload as JobView;
  expect(job.status).toBe('queued');
  expect(await t.ctx.queue.getJobCounts('waiting', 'prioritized')).toMatchObject({ waiting: 1 });
  expect((await money(t, user.id)).balance).toBe(40);

  const refused = await agent
    .post('/api/tools/remove-background')
    .attach('image', await solidImage('png'), 'b.png')
    .expect(503);
  expect(refused.body.code).toBe('tool_unavailable');
  expect((await money(t, user.id)).balance).toBe(40);

  const worker = await workerFor(t, { tools: ['upscale'] });
  try {
    const done = await waitForStatus(agent, job.id, ['succeeded', 'failed'], 30_000);
    expect(done.status).toBe('succeeded');
    const after = await money(t, user.id, job.id);
    expect(after.balance).toBe(40);
    expect(after.ledger).toBe(40);
  } finally {
    await worker.close();
  }
}, 60_000);

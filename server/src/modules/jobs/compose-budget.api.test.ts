import type { JobView } from '@imagestudio/contracts';
import { compositionsPrefix } from '@imagestudio/runtime';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import type { TestWorker } from '../../test/test-worker';
import { solidImage } from '../uploads/test-images';
import { COMPOSE_LIMIT_MESSAGES } from './compose-budget';
import { coffeeCutout, cutoutJob } from './cutout.test-support';
import { startJobEvents } from './job-events';
import { workerFor } from './jobs.test-support';

/**
 * What free re-composition may cost (compose-budget.ts): the canvas cap, the hourly megapixels and stored bytes
 * per customer, the renders at once per process, and the race with a deletion.
 */

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;
let cutout: Buffer;

beforeAll(async () => {
  t = await createTestContext({
    JOB_SUBMIT_RATE_PER_MINUTE: '1000',
    COMPOSE_RATE_PER_MINUTE: '1000',
    COMPOSE_MEGAPIXELS_PER_HOUR: '20',
    COMPOSE_CONCURRENCY: '1',
    COMPOSE_QUEUE_MAX: '1',
  });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, { tools: ['remove-background'] });
  cutout = await coffeeCutout();
});

afterAll(async () => {
  await worker.close();
  await stopEvents();
  await t.close();
});

type Agent = Awaited<ReturnType<typeof verifiedUser>>['agent'];

/** A 2048 px picture on the blurred photo (5 megapixels): a render long enough to overlap others. */
const heavy = (agent: Agent, jobId: string) =>
  agent.post(`/api/jobs/${jobId}/compose`).field('canvas', '2048x2048').field('background_blur', '20');

/** A 1024 px AVIF: 1 megapixel counted four times, 5 of the budget. */
const avif = (agent: Agent, jobId: string) =>
  agent.post(`/api/jobs/${jobId}/compose`).field('canvas', '1024x1024').field('output_format', 'avif');

describe('the cost of free re-composition', () => {
  it('refuses a canvas the photo cannot justify: at most twice its size, or 2048 px', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await cutoutJob(agent, cutout);
    const refused = await agent.post(`/api/jobs/${job.id}/compose`).field('canvas', '8000x8000').expect(422);
    expect(refused.body.errors).toEqual({ canvas: [COMPOSE_LIMIT_MESSAGES.canvas] });
    await agent.post(`/api/jobs/${job.id}/compose`).field('canvas', '2049x100').expect(422);
    const allowed = await agent.post(`/api/jobs/${job.id}/compose`).field('canvas', '2048x1024').expect(201);
    expect(allowed.body.payload).toMatchObject({ width: 2048, height: 1024 });
  });

  it('counts megapixels per customer per hour (AVIF four times), with Retry-After past the budget', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const other = await verifiedUser(t, { balanceTokens: 5 });
    const job = await cutoutJob(agent, cutout);
    const theirs = await cutoutJob(other.agent, cutout);
    // 20 MP an hour: four 1024 px AVIFs are 4 x 5 = 20; the fifth does not fit.
    for (let i = 0; i < 4; i++) await avif(agent, job.id).expect(201);
    const limited = await avif(agent, job.id).expect(429);
    expect(limited.body.message).toBe(COMPOSE_LIMIT_MESSAGES.hourly);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(60);
    // Another customer's budget is their own.
    await avif(other.agent, theirs.id).expect(201);
  }, 60_000);

  it('stops at the stored bytes a customer may keep, until some are deleted', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await cutoutJob(agent, cutout);
    // Pictures already stored (recorded as 2 GB, the default limit) on this customer's job.
    const stored = { key: 'x', width: 1, height: 1, format: 'png', bytes: 2048 * 1024 * 1024, created_at: '' };
    await t.ctx
      .db('image_jobs')
      .where({ id: job.id })
      .update({ compositions: JSON.stringify([stored]) });
    const refused = await agent.post(`/api/jobs/${job.id}/compose`).expect(429);
    expect(refused.body.message).toBe(COMPOSE_LIMIT_MESSAGES.storage.replace('{n}', '2048'));
    const second = await cutoutJob(agent, cutout);
    await agent.post(`/api/jobs/${second.id}/compose`).expect(429);
    // Deleting the job that holds them frees the space.
    await agent.delete(`/api/jobs/${job.id}`).expect(200);
    await agent.post(`/api/jobs/${second.id}/compose`).expect(201);
  });

  it("renders one at a time per process, answers 503 past the queue, and keeps others' uploads quick", async () => {
    // Two customers, two renders each (an upload's in-flight limit per customer is two): one renders, one waits.
    const first = await verifiedUser(t, { balanceTokens: 5 });
    const second = await verifiedUser(t, { balanceTokens: 5 });
    const jobs = [await cutoutJob(first.agent, cutout), await cutoutJob(second.agent, cutout)];
    const uploader = await verifiedUser(t, { balanceTokens: 5 });
    const small = await solidImage('png', 64, 64);

    const composes = [first, first, second, second].map((u, i) =>
      heavy(u.agent, jobs[i < 2 ? 0 : 1]!.id).then((res) => res.status),
    );
    // While they run: another customer's upload is checked and accepted at once.
    await new Promise((r) => setTimeout(r, 300));
    const started = performance.now();
    await uploader.agent.post('/api/tools/remove-background').attach('image', small, 'small.png').expect(202);
    expect(performance.now() - started).toBeLessThan(2000);

    const statuses = await Promise.all(composes);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(2);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 503)).toBe(true);
  }, 60_000);

  it('leaves no picture behind when the job is deleted while it renders', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await cutoutJob(agent, cutout);
    const composing = heavy(agent, job.id).then((res) => res.status);
    await new Promise((r) => setTimeout(r, 300));
    await agent.delete(`/api/jobs/${job.id}`).expect(200);
    expect([201, 404]).toContain(await composing);
    const prefix = compositionsPrefix({ userId: user.id, jobId: job.id });
    // Nothing was left to remove under the job's compositions.
    expect(await t.ctx.storage.deletePrefix(prefix)).toBe(0);
    const view = (await agent.get(`/api/jobs/${job.id}`).expect(200)).body.payload as JobView;
    expect(view.compositions).toEqual([]);
  }, 60_000);
});

import sharp from 'sharp';
import type { JobView } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import type { TestWorker } from '../../test/test-worker';
import { startJobEvents } from '../jobs/job-events';
import { money, workerFor } from '../jobs/jobs.test-support';

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;
let key: string;
let userId: string;

beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000' });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, { concurrency: 2, slowMs: 3000 });
  const owner = await verifiedUser(t, { balanceTokens: 50 });
  userId = owner.user.id;
  key = (await owner.agent.post('/api/user/api-keys').send({ name: 'sync' }).expect(201)).body.payload.key;
}, 30_000);
afterAll(async () => {
  await worker.close();
  await stopEvents();
  await t.close();
});

const generate = (query: string, body: Record<string, unknown>, accept?: string) => {
  const req = t.agent().post(`/api/tools/generate${query}`).set('Authorization', `Bearer ${key}`);
  if (accept) req.set('Accept', accept);
  return req.send({ size: '1024x1024', ...body });
};

describe('?wait= on the tool calls', () => {
  it('answers 200 with the finished job when it ends within the wait', async () => {
    const res = await generate('?wait=20', { prompt: 'a quiet harbour' }).expect(200);
    const job = res.body.payload as JobView;
    expect(job).toMatchObject({ status: 'succeeded', progress: 100 });
    expect(job.results).toHaveLength(1);
  });

  it('answers 202 as without wait when the job has not ended in time', async () => {
    const started = Date.now();
    const res = await generate('?wait=1', { prompt: 'slow one [[slow]]' }).expect(202);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(['queued', 'running']).toContain(res.body.payload.status);
  });

  it('answers 200 with a failed job (refunded) when it fails within the wait', async () => {
    const before = (await money(t, userId)).balance;
    const res = await generate('?wait=20', { prompt: 'broken [[fail-unrecoverable]]' }).expect(200);
    expect(res.body.payload).toMatchObject({ status: 'failed', refunded: true });
    expect((await money(t, userId)).balance).toBe(before);
  });

  it('refuses a wait above 60 seconds before charging', async () => {
    const before = (await money(t, userId)).balance;
    const res = await generate('?wait=61', { prompt: 'x' }).expect(422);
    expect(res.body.errors).toEqual({ wait: ['wait must be a whole number of seconds from 0 to 60.'] });
    expect((await money(t, userId)).balance).toBe(before);
  });
});

describe('Accept: image/* with wait', () => {
  it('returns the bytes of a single-result job', async () => {
    const res = await generate('?wait=20', { prompt: 'one image' }, 'image/png').buffer(true).expect(200);
    expect(res.headers['content-type']).toBe('image/png');
    const meta = await sharp(res.body as Buffer).metadata();
    expect(meta.format).toBe('png');
    const job = (await t.agent().get(`/api/jobs/${res.headers['x-job-id']}`).set('X-Api-Key', key).expect(200)).body
      .payload as JobView;
    expect(job.results[0]!.bytes).toBe((res.body as Buffer).length);
  });

  it('sends JSON for several results, or when the image type is not accepted', async () => {
    const several = await generate('?wait=20', { prompt: 'two images', count: 2 }, 'image/png').expect(200);
    expect(several.headers['content-type']).toMatch(/^application\/json/);
    expect(several.body.payload.results).toHaveLength(2);
    const other = await generate('?wait=20', { prompt: 'one more' }, 'image/webp').expect(200);
    expect(other.body.payload.status).toBe('succeeded');
  });
});

import sharp from 'sharp';
import { batchViewSchema, isDoubtfulCutout, jobViewSchema, type BatchView, type JobView } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import type { TestWorker } from '../../test/test-worker';
import { waitForBatch } from '../batches/batches.test-support';
import { keyHolder } from '../removebg-compat/removebg.test-support';
import { startJobEvents } from './job-events';
import { waitForStatus, workerFor } from './jobs.test-support';

/**
 * A background removal's cut-out confidence, from the worker's result to every reply that shows it: the job view,
 * a batch item, /v1.0/removebg's header and JSON. The test worker scores its cut-outs with the real function on
 * the upload's own alpha, so a clean subject scores 1 and a half-transparent one 0.
 */

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;
/** 100x80, transparent but for a 40x30 subject at (30, 25): opaque (clean), or all at half alpha (doubtful). */
let clean: Buffer;
let doubtful: Buffer;

async function cutout(alpha: number): Promise<Buffer> {
  const box = await sharp({
    create: { width: 40, height: 30, channels: 4, background: { r: 192, g: 80, b: 40, alpha } },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width: 100, height: 80, channels: 4, background: '#00000000' } })
    .composite([{ input: box, left: 30, top: 25 }])
    .png()
    .toBuffer();
}

beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000' });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, { tools: ['remove-background', 'upscale'] });
  clean = await cutout(1);
  doubtful = await cutout(0.5);
});

afterAll(async () => {
  await worker.close();
  await stopEvents();
  await t.close();
});

describe('cutout_confidence', () => {
  it("is in the job view of a background removal, the worker's score as stored; null for other tools", async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const run = async (tool: string, image: Buffer) => {
      const req = agent.post(`/api/tools/${tool}`);
      if (tool === 'upscale') req.field('factor', '2');
      const res = await req.attach('image', image, 'shoe.png').expect(202);
      // Not known before the job ends.
      expect((res.body.payload as JobView).cutout_confidence).toBeNull();
      const job = await waitForStatus(agent, (res.body.payload as JobView).id, ['succeeded'], 20_000);
      // The reply as documented: the schema the OpenAPI document is made of.
      return jobViewSchema.parse(job);
    };
    const good = await run('remove-background', clean);
    expect(good.cutout_confidence).toBe(1);
    expect(isDoubtfulCutout(good.cutout_confidence)).toBe(false);
    const bad = await run('remove-background', doubtful);
    expect(bad.cutout_confidence).toBe(0);
    expect(isDoubtfulCutout(bad.cutout_confidence)).toBe(true);
    const row = await t.ctx.db('image_jobs').where({ id: bad.id }).first('result');
    expect(row.result.cutoutConfidence).toBe(0);
    expect((await run('upscale', clean)).cutout_confidence).toBeNull();

    // The job list shows it too.
    const list = await agent.get('/api/jobs').expect(200);
    const listed = (list.body.payload.items as JobView[]).find((j) => j.id === bad.id);
    expect(listed?.cutout_confidence).toBe(0);
  });

  it("is in each batch item's view", async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const res = await agent
      .post('/api/batches')
      .field('tool', 'remove-background')
      .attach('images', clean, 'clean.png')
      .attach('images', doubtful, 'doubtful.png')
      .expect(202);
    const batch = await waitForBatch(agent, res.body.payload.id as string, (b: BatchView) => b.status === 'succeeded');
    const items = batchViewSchema.parse(batch).items;
    expect(Object.fromEntries(items.map((i) => [i.file_name, i.cutout_confidence]))).toEqual({
      'clean.png': 1,
      'doubtful.png': 0,
    });
  });

  it('is the X-Cutout-Confidence header of /v1.0/removebg and a field of its JSON reply', async () => {
    const { key } = await keyHolder(t);
    const post = () => t.agent().post('/v1.0/removebg').set('X-Api-Key', key);
    const good = await post().attach('image_file', clean, 'a.png').buffer(true).expect(200);
    expect(good.headers['content-type']).toBe('image/png');
    expect(good.headers['x-cutout-confidence']).toBe('1.00');
    const bad = await post().set('Accept', 'application/json').attach('image_file', doubtful, 'b.png').expect(200);
    expect(bad.headers['x-cutout-confidence']).toBe('0.00');
    expect(bad.body.data).toMatchObject({ cutout_confidence: 0, foreground_width: 40, foreground_height: 30 });
  });
});

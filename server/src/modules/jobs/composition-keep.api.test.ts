import fs from 'node:fs';
import sharp from 'sharp';
import { compositionViewSchema, jobViewSchema, type CompositionView, type JobView } from '@imagestudio/contracts';
import { fromProjectRoot, resultsPrefix } from '@imagestudio/runtime';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import type { TestWorker } from '../../test/test-worker';
import { compositionThumbnailKey } from './composition-keep';
import { startJobEvents } from './job-events';
import { workerFor } from './jobs.test-support';
import { coffeeCutout, cutoutJob } from './cutout.test-support';

/**
 * A composition is kept as a result of its job (composition-keep.ts): beside the picture a WebP list preview and
 * the fields that made it, both shown in the job view until the job's files go.
 */

const CAT = fs.readFileSync(fromProjectRoot('client/public/examples/chelsea.webp'));

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;
let cutout: Buffer;

beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000', COMPOSE_RATE_PER_MINUTE: '1000' });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, { tools: ['remove-background'] });
  cutout = await coffeeCutout();
});

afterAll(async () => {
  await worker.close();
  await stopEvents();
  await t.close();
});

async function bytesOf(url: string): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** The keys the row holds for its compositions. */
async function storedKeys(jobId: string): Promise<{ key: string; thumbnail_key?: string }[]> {
  const row = await t.ctx.db('image_jobs').where({ id: jobId }).first('compositions');
  return row.compositions as { key: string; thumbnail_key?: string }[];
}

describe('kept compositions', () => {
  it('stores a WebP preview and the fields that made each picture, and the job view lists them', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await cutoutJob(agent, cutout);
    const white = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#fff' } })
      .greyscale()
      .png()
      .toBuffer();
    const res = await agent
      .post(`/api/jobs/${job.id}/compose`)
      .field('crop_to_subject', 'true')
      .field('margin', ' 8% ')
      .field('canvas', '1000x500')
      .field('shadow', 'drop')
      .field('output_format', 'JPEG')
      .field('quality', '80')
      .attach('background_image', CAT, 'cat.webp')
      .attach('matte', white, 'matte.png')
      .expect(201);
    const picture = compositionViewSchema.parse(res.body.payload);
    expect(picture).toMatchObject({ width: 1000, height: 500, format: 'jpeg', edited_matte: true });
    // The fields as the job's own params keep them: trimmed, the format in lower case, the image as a flag.
    expect(picture.layout).toEqual({
      crop_to_subject: true,
      margin: '8%',
      canvas: '1000x500',
      shadow: 'drop',
      output_format: 'jpeg',
      quality: '80',
      background_image: true,
      mask_only: false,
    });
    const file = await bytesOf(picture.url);
    expect(picture.bytes).toBe(file.length);
    const thumb = await sharp(await bytesOf(picture.thumbnail_url!)).metadata();
    expect([thumb.format, thumb.width, thumb.height]).toEqual(['webp', 256, 128]);

    // A plain one (JSON, no files): the defaults the params always carry, no edited matte; listed in order.
    const plain = (await agent.post(`/api/jobs/${job.id}/compose`).send({ canvas: '1:1' }).expect(201)).body
      .payload as CompositionView;
    expect([plain.layout, plain.edited_matte]).toEqual([
      { canvas: '1:1', output_format: 'png', mask_only: false },
      false,
    ]);
    const view = jobViewSchema.parse((await agent.get(`/api/jobs/${job.id}`).expect(200)).body.payload);
    const noUrls = (c: CompositionView) => ({ ...c, url: expect.any(String), thumbnail_url: expect.any(String) });
    expect(view.compositions).toEqual([noUrls(picture), noUrls(plain)]);
    const keys = await storedKeys(job.id);
    expect(keys.map((k) => k.thumbnail_key)).toEqual(keys.map((k) => compositionThumbnailKey(k.key)));
  });

  it('shows a picture made before previews and layouts were kept without them', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await cutoutJob(agent, cutout);
    await agent.post(`/api/jobs/${job.id}/compose`).send({ canvas: '1:1' }).expect(201);
    const [kept] = (await t.ctx.db('image_jobs').where({ id: job.id }).first('compositions')).compositions;
    const { thumbnail_key: _thumb, layout: _layout, edited_matte: _matte, ...older } = kept;
    await t.ctx
      .db('image_jobs')
      .where({ id: job.id })
      .update({ compositions: JSON.stringify([older]) });
    const view = jobViewSchema.parse((await agent.get(`/api/jobs/${job.id}`).expect(200)).body.payload);
    expect(view.compositions).toEqual([
      expect.objectContaining({ thumbnail_url: null, layout: null, edited_matte: false, bytes: older.bytes }),
    ]);
  });

  it('deleting the job removes every picture and its preview', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await cutoutJob(agent, cutout);
    for (const canvas of ['1:1', '4:5']) await agent.post(`/api/jobs/${job.id}/compose`).send({ canvas }).expect(201);
    const keys = (await storedKeys(job.id)).flatMap((k) => [k.key, k.thumbnail_key!]);
    expect(keys).toHaveLength(4);
    for (const key of keys) await t.ctx.storage.get(key);

    await agent.delete(`/api/jobs/${job.id}`).expect(200);
    for (const key of keys) await expect(t.ctx.storage.get(key)).rejects.toThrow();
    expect(await t.ctx.storage.deletePrefix(resultsPrefix({ userId: user.id, jobId: job.id }))).toBe(0);
    const view = (await agent.get(`/api/jobs/${job.id}`).expect(200)).body.payload as JobView;
    expect([view.deleted, view.compositions]).toEqual([true, []]);
  });
});

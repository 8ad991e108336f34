import sharp from 'sharp';
import type { Agent } from 'supertest';
import type { BatchAccepted, BatchView, JobView } from '@imagestudio/contracts';
import { heifEnc } from '@imagestudio/runtime/testing';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import type { TestWorker } from '../../test/test-worker';
import { waitForBatch } from '../batches/batches.test-support';
import { startJobEvents } from '../jobs/job-events';
import { waitFor, waitForStatus, workerFor } from '../jobs/jobs.test-support';
import { INPUT_PREVIEW } from './input-preview';
import { solidImage } from './test-images';

/**
 * The browser preview of an input (input-preview.ts): made at upload for HEIC, AVIF, TIFF and large inputs,
 * stored beside the input, shown as `input_preview_url` in the job view and each batch item, gone with the input.
 */

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;

beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000' });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, { tools: ['remove-background', 'upscale'] });
});

afterAll(async () => {
  await worker.close();
  await stopEvents();
  await t.close();
});

const RED = { r: 230, g: 30, b: 20 };
const BLUE = { r: 20, g: 40, b: 220 };

/** A photo-sized image, its left half red and its right half blue (in sRGB), so a turn or a mirror shows. */
function halves(width: number, height: number): sharp.Sharp {
  const left = { input: { create: { width: Math.floor(width / 2), height, channels: 3, background: RED } } } as const;
  return sharp({ create: { width, height, channels: 3, background: BLUE } }).composite([{ ...left, left: 0, top: 0 }]);
}

/** The preview's bytes, fetched through its presigned URL, with sharp's reading of them. */
async function fetchPreview(url: string | null): Promise<{ meta: sharp.Metadata; image: sharp.Sharp }> {
  expect(url).toEqual(expect.any(String));
  const res = await fetch(url!);
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  return { meta: await sharp(bytes).metadata(), image: sharp(bytes) };
}

/** The mean colour of a 16x16 patch centred at (x, y). */
async function colourAt(image: sharp.Sharp, x: number, y: number): Promise<number[]> {
  const patch = await image
    .clone()
    .extract({ left: x - 8, top: y - 8, width: 16, height: 16 })
    .removeAlpha()
    .raw()
    .toBuffer();
  const sums = [0, 0, 0];
  for (let i = 0; i < patch.length; i += 3) for (let c = 0; c < 3; c++) sums[c]! += patch[i + c]!;
  return sums.map((s) => Math.round(s / (patch.length / 3)));
}

function expectNear(actual: number[], expected: { r: number; g: number; b: number }, tolerance: number): void {
  const want = [expected.r, expected.g, expected.b];
  const off = actual.map((v, i) => Math.abs(v - want[i]!));
  expect({ actual, within: Math.max(...off) <= tolerance }).toEqual({ actual, within: true });
}

/** The job's view once its preview is made (after the reply, in the background). */
function withPreview(agent: Agent, id: string): Promise<JobView> {
  return waitFor(
    async () => {
      const job = (await agent.get(`/api/jobs/${id}`).expect(200)).body.payload as JobView;
      return job.input_preview_url ? job : undefined;
    },
    15_000,
    `job ${id} to have its input preview`,
  );
}

describe('the browser preview of an upload', () => {
  it('makes a HEIC (which Chrome cannot show) into an sRGB WebP of at most 2048 px, in the job view', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    // A Display P3 HEIC, as iPhones save: the preview must hold sRGB values, not P3 values read as sRGB.
    const p3Jpeg = await halves(2400, 1600).withIccProfile('p3').jpeg({ quality: 95 }).toBuffer();
    const heic = await heifEnc(p3Jpeg, { quality: 90 });
    const res = await agent.post('/api/tools/remove-background').attach('image', heic, 'IMG_0001.HEIC').expect(202);
    const accepted = res.body.payload as JobView;
    // The reply does not wait for it: accepting an upload decodes nothing.
    expect(accepted.input_preview_url).toBeNull();
    const viewed = await withPreview(agent, accepted.id);

    const row = await t.ctx.db('image_jobs').where({ id: accepted.id }).first();
    expect(row.input_preview_key).toBe(`inputs/${user.id}/${accepted.id}/preview.webp`);
    // The input itself is kept as sent; the preview is beside it.
    expect((await t.ctx.storage.get(row.input_key)).equals(heic)).toBe(true);

    const { meta, image } = await fetchPreview(viewed.input_preview_url);
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: 'webp',
      width: INPUT_PREVIEW.maxSide,
      height: 1365,
    });
    expect(meta.icc).toBeUndefined();
    expectNear(await colourAt(image, 500, 680), RED, 8);
    expectNear(await colourAt(image, 1540, 680), BLUE, 8);

    // GET /api/jobs/{id} shows it too, with a fresh URL, also after the job ran.
    const done = await waitForStatus(agent, accepted.id, ['succeeded']);
    expect((await fetchPreview(done.input_preview_url)).meta.format).toBe('webp');
  });

  it('turns a TIFF by its EXIF orientation and caps its long side', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    // Stored sideways: orientation 6 turns it a quarter clockwise, so upright it is 2000 x 3000, red on top.
    const png = await halves(3000, 2000).png().toBuffer();
    const tiff = await sharp(png).tiff({ compression: 'lzw' }).withMetadata({ orientation: 6 }).toBuffer();
    const res = await agent
      .post('/api/tools/upscale')
      .field('factor', '2')
      .attach('image', tiff, 'scan.tif')
      .expect(202);
    const job = await withPreview(agent, (res.body.payload as JobView).id);
    const { meta, image } = await fetchPreview(job.input_preview_url);
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: 'webp',
      width: 1365,
      height: INPUT_PREVIEW.maxSide,
    });
    expect(meta.orientation).toBeUndefined();
    expectNear(await colourAt(image, 680, 500), RED, 8);
    expectNear(await colourAt(image, 680, 1540), BLUE, 8);
    await waitForStatus(agent, job.id, ['succeeded']);
  });

  it('makes none for a small JPEG a browser shows as it is', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const res = await agent
      .post('/api/tools/remove-background')
      .attach('image', await solidImage('jpeg', 640, 480), 'shoe.jpg')
      .expect(202);
    const job = res.body.payload as JobView;
    expect(job.input_preview_url).toBeNull();
    expect(job.input_url).toEqual(expect.any(String));
    expect((await t.ctx.db('image_jobs').where({ id: job.id }).first()).input_preview_key).toBeNull();
    await expect(t.ctx.storage.get(`inputs/${user.id}/${job.id}/preview.webp`)).rejects.toThrow();
    await waitForStatus(agent, job.id, ['succeeded']);
  });

  it('gives each batch item that needs one its preview, and deleting the job removes it', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 10 });
    const heic = await heifEnc(await halves(300, 200).jpeg().toBuffer(), { quality: 90 });
    const res = await agent
      .post('/api/batches')
      .field('tool', 'remove-background')
      .attach('images', heic, 'a.heic')
      .attach('images', await solidImage('png', 64, 48), 'b.png')
      .expect(202);
    const accepted = res.body.payload as BatchAccepted;
    const done = await waitForBatch(
      agent,
      accepted.id,
      (b: BatchView) => b.status === 'succeeded' && b.items[0]!.input_preview_url !== null,
    );
    const [a, b] = done.items;
    expect(b!.input_preview_url).toBeNull();
    const { meta, image } = await fetchPreview(a!.input_preview_url);
    // A small HEIC keeps its size: only its format changes.
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: 'webp',
      width: 300,
      height: 200,
    });
    expectNear(await colourAt(image, 60, 100), RED, 8);

    const row = await t.ctx.db('image_jobs').where({ id: a!.id }).first();
    await agent.delete(`/api/jobs/${a!.id}`).expect(200);
    await expect(t.ctx.storage.get(row.input_preview_key)).rejects.toThrow();
    const after = (await agent.get(`/api/jobs/${a!.id}`).expect(200)).body.payload as JobView;
    expect(after.input_preview_url).toBeNull();
  });
});

import fs from 'node:fs';
import sharp from 'sharp';
import { PRODUCT_PHOTO_MESSAGES, type BatchView, type CompositionView, type JobView } from '@imagestudio/contracts';
import { composeSourceKeys, fromProjectRoot, inputFileKey } from '@imagestudio/runtime';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import type { TestWorker } from '../../test/test-worker';
import { waitForBatch } from '../batches/batches.test-support';
import { startJobEvents } from '../jobs/job-events';
import { money, waitForStatus, workerFor } from '../jobs/jobs.test-support';
import { coffeeCutout } from '../jobs/cutout.test-support';
import { expireOldResults } from '../jobs/retention';
import { svgImage } from '../uploads/test-images';

/**
 * Issue 29's options end to end through the API, on real images: the coffee photo cut out with its real ISNet
 * matte (the worker's golden mask) as the upload, so the test worker (which takes an upload's own alpha as the
 * matte, then runs the real product-photo engine) lays out a real subject; the site's cat photo as a background.
 */

const COFFEE_MATTE = fs.readFileSync(fromProjectRoot('worker/src/test-support/fixtures/coffee-300-mask.png'));
const CAT = fs.readFileSync(fromProjectRoot('client/public/examples/chelsea.webp'));
/** The subject's box in the matte, found by hand: alpha >= 26 (the engine's threshold) on the golden mask. */
const SUBJECT = { left: 38, top: 8, width: 203, height: 188 };

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;
let cutout: Buffer;

beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000', COMPOSE_RATE_PER_MINUTE: '6' });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, { tools: ['remove-background', 'generate', 'upscale'] });
  cutout = await coffeeCutout();
});

afterAll(async () => {
  await worker.close();
  await stopEvents();
  await t.close();
});

type Agent = Awaited<ReturnType<typeof verifiedUser>>['agent'];

async function bytesOf(url: string): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** A remove-background call with these option fields (and files), 202 expected. */
async function removeBackground(agent: Agent, fields: Record<string, string>, files: Record<string, Buffer> = {}) {
  const req = agent.post('/api/tools/remove-background');
  for (const [k, v] of Object.entries(fields)) req.field(k, v);
  req.attach('image', cutout, 'coffee.png');
  for (const [k, v] of Object.entries(files)) req.attach(k, v, `${k}.webp`);
  const res = await req.expect(202);
  return waitForStatus(agent, (res.body.payload as JobView).id, ['succeeded'], 20_000);
}

const near = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1);

describe('product-photo options on POST /api/tools/remove-background', () => {
  it("keeps today's plain cut-out by default, with the subject's box and the stored cut-out in the view", async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await removeBackground(agent, {});
    expect(job.params).toEqual({ output_format: 'png', mask_only: false });
    const [result] = job.results;
    expect(result).toMatchObject({ width: 300, height: 200, format: 'png', subject_box: SUBJECT });
    const meta = await sharp(await bytesOf(result!.url)).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', 300, 200, true]);
    // The cut-out to re-compose from: an opaque foreground and a greyscale matte, both at full size.
    expect(job.compose_sources).toMatchObject({ width: 300, height: 200 });
    const fg = await sharp(await bytesOf(job.compose_sources!.foreground_url)).metadata();
    expect([fg.format, fg.width, fg.height, fg.hasAlpha]).toEqual(['png', 300, 200, false]);
    const matte = await bytesOf(job.compose_sources!.matte_url);
    const m = await sharp(matte).metadata();
    expect([m.width, m.height, m.channels]).toEqual([300, 200, 1]);
    const golden = await sharp(COFFEE_MATTE).extractChannel(0).raw().toBuffer();
    expect((await sharp(matte).extractChannel(0).raw().toBuffer()).equals(golden)).toBe(true);
    expect(job.compositions).toEqual([]);
  });

  it('crops to the subject, scales it into a fixed canvas inside the margin, on white, as JPEG', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await removeBackground(agent, {
      crop_to_subject: 'true',
      margin: '10%',
      canvas: '400x400',
      background_color: 'white',
      output_format: 'jpeg',
      quality: '85',
    });
    expect(job.cost).toBe(1);
    expect((await money(t, user.id, job.id)).keys).toEqual([`job:${job.id}:charge=-10`]);
    const [result] = job.results;
    expect(result).toMatchObject({ width: 400, height: 400, format: 'jpeg' });
    // 320 px inside the margins; the subject's long side (its width) fills them, centred.
    const box = result!.subject_box!;
    near(box.width, 320);
    near(box.height, (SUBJECT.height * 320) / SUBJECT.width);
    near(box.left, 40);
    near(box.top + box.height / 2, 200);
    const file = await bytesOf(result!.url);
    const meta = await sharp(file).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['jpeg', 400, 400, false]);
    const corner = await sharp(file).extract({ left: 2, top: 2, width: 1, height: 1 }).raw().toBuffer();
    for (const c of corner) expect(c).toBeGreaterThanOrEqual(250);
  });

  it('writes webp, avif and auto (PNG while transparency is left, JPEG on an opaque background)', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 10 });
    const cases: [Record<string, string>, string, boolean][] = [
      [{ output_format: 'webp', quality: '80' }, 'webp', true],
      [{ output_format: 'avif', background_color: '#336699' }, 'heif', false],
      [{ output_format: 'auto' }, 'png', true],
      [{ output_format: 'auto', background_color: '#fff' }, 'jpeg', false],
    ];
    for (const [fields, format, alpha] of cases) {
      const job = await removeBackground(agent, fields);
      const file = await bytesOf(job.results[0]!.url);
      const meta = await sharp(file).metadata();
      expect([meta.format, meta.hasAlpha, meta.width, meta.height]).toEqual([format, alpha, 300, 200]);
      expect(job.results[0]!.format).toBe(format === 'heif' ? 'avif' : format);
    }
  });

  it('takes a background image as a second file part, stores it with the job and deletes it with the job', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await removeBackground(agent, { canvas: '1:1' }, { background_image: CAT });
    expect(job.params).toMatchObject({ background_image: true, canvas: '1:1' });
    const result = await sharp(await bytesOf(job.results[0]!.url))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([result.info.width, result.info.height, result.info.channels]).toEqual([300, 300, 3]);
    const key = inputFileKey({ userId: user.id, jobId: job.id }, 'background_image');
    expect((await sharp(await t.ctx.storage.get(key)).metadata()).format).toBe('webp');
    await agent.delete(`/api/jobs/${job.id}`).expect(200);
    await expect(t.ctx.storage.get(key)).rejects.toThrow();
    await expect(
      t.ctx.storage.get(composeSourceKeys({ userId: user.id, jobId: job.id }).foregroundKey),
    ).rejects.toThrow();
  });

  it('refuses every bad option with a 422 naming the field, in English and German, and charges nothing', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const before = await money(t, user.id);
    const refusals: [Record<string, string>, string, string][] = [
      [{ margin: '60%' }, 'margin', PRODUCT_PHOTO_MESSAGES.marginTooLarge],
      [{ canvas: '3x3' }, 'canvas', PRODUCT_PHOTO_MESSAGES.canvas],
      [{ background_color: 'white', background_blur: '10' }, 'background_blur', PRODUCT_PHOTO_MESSAGES.oneBackground],
      [{ output_format: 'gif' }, 'output_format', PRODUCT_PHOTO_MESSAGES.outputFormat],
      [{ quality: '101' }, 'quality', PRODUCT_PHOTO_MESSAGES.quality],
      [{ shadow: 'big' }, 'shadow', PRODUCT_PHOTO_MESSAGES.shadow],
      [{ mask_only: 'true', shadow: 'drop' }, 'mask_only', PRODUCT_PHOTO_MESSAGES.maskOnlyAlone],
    ];
    for (const [fields, field, message] of refusals) {
      const req = agent.post('/api/tools/remove-background');
      for (const [k, v] of Object.entries(fields)) req.field(k, v);
      const res = await req.attach('image', cutout, 'coffee.png').expect(422);
      expect(res.body.errors[field]).toEqual([message]);
    }
    const de = await agent
      .post('/api/tools/remove-background')
      .field('lang_id', 'de')
      .field('margin', '60%')
      .attach('image', cutout, 'coffee.png')
      .expect(422);
    expect(de.body.errors.margin).toEqual(['Der Rand muss auf jeder Seite unter 50% liegen.']);
    // A background image that is not an image: named as that field, checked like the main image.
    const svg = await agent
      .post('/api/tools/remove-background')
      .attach('image', cutout, 'coffee.png')
      .attach('background_image', svgImage, 'bg.svg')
      .expect(422);
    expect(Object.keys(svg.body.errors)).toEqual(['background_image']);
    // A text field cannot stand in for the file.
    const text = await agent
      .post('/api/tools/remove-background')
      .field('background_image', 'true')
      .field('background_color', 'red')
      .attach('image', cutout, 'coffee.png')
      .expect(202);
    expect((text.body.payload as JobView).params).not.toHaveProperty('background_image');
    const after = await money(t, user.id);
    expect(after.balance).toBe(before.balance - 10);
    expect(await t.ctx.db('image_jobs').where({ user_id: user.id }).count('* as n').first()).toEqual({ n: '1' });
  });
});

describe('product-photo options on POST /api/batches', () => {
  it('lays out every item alike (one background image for all) and retries an item with its background', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
    const small = await sharp(cutout).resize(150).png().toBuffer();
    const res = await agent
      .post('/api/batches')
      .field('tool', 'remove-background')
      .field('crop_to_subject', 'true')
      .field('canvas', '200x200')
      .field('margin', '5%')
      .field('output_format', 'jpeg')
      .attach('images', cutout, 'a.png')
      .attach('images', small, 'b.png')
      .attach('background_image', CAT, 'cat.webp')
      .expect(202);
    const batch = await waitForBatch(agent, res.body.payload.id as string, (b: BatchView) => b.status === 'succeeded');
    expect(batch.items).toHaveLength(2);
    for (const item of batch.items) {
      expect(item.results[0]).toMatchObject({ width: 200, height: 200, format: 'jpeg' });
      near(item.results[0]!.subject_box!.width, 180);
      const key = inputFileKey({ userId: user.id, jobId: item.id }, 'background_image');
      expect((await sharp(await t.ctx.storage.get(key)).metadata()).format).toBe('webp');
    }
    expect((await money(t, user.id)).balance).toBe(80);

    // A failed item runs again with a copy of its input and of its background image.
    worker.setBehaviour('fail-unrecoverable');
    const failing = await agent
      .post('/api/batches')
      .field('tool', 'remove-background')
      .field('canvas', '200x200')
      .attach('images', small, 'c.png')
      .attach('background_image', CAT, 'cat.webp')
      .expect(202);
    const failed = await waitForBatch(
      agent,
      failing.body.payload.id as string,
      (b: BatchView) => b.status === 'failed',
    );
    worker.setBehaviour('succeed');
    const retried = await agent.post(`/api/batches/${failed.id}/items/${failed.items[0]!.id}/retry`).expect(202);
    const again = await waitForStatus(agent, retried.body.payload.id as string, ['succeeded']);
    expect(again.params).toMatchObject({ background_image: true });
    expect(again.results[0]).toMatchObject({ width: 200, height: 200, format: 'png' });
    // Opaque: the cat fills the canvas behind the subject.
    expect((await sharp(await bytesOf(again.results[0]!.url)).metadata()).hasAlpha).toBe(false);
    const copy = inputFileKey({ userId: user.id, jobId: again.id }, 'background_image');
    expect((await sharp(await t.ctx.storage.get(copy)).metadata()).format).toBe('webp');
    expect((await money(t, user.id)).balance).toBe(70);

    // A file the chosen tool does not take is refused before anything is charged.
    const upscale = await agent
      .post('/api/batches')
      .field('tool', 'upscale')
      .field('factor', '2')
      .attach('images', small, 'b.png')
      .attach('background_image', CAT, 'cat.webp')
      .expect(422);
    expect(Object.keys(upscale.body.errors)).toEqual(['background_image']);
    const bad = await agent
      .post('/api/batches')
      .field('tool', 'remove-background')
      .field('position', 'left')
      .attach('images', small, 'b.png')
      .expect(422);
    expect(bad.body.errors.position).toEqual([PRODUCT_PHOTO_MESSAGES.position]);
    expect((await money(t, user.id)).balance).toBe(70);
  });
});

describe('POST /api/jobs/{id}/compose', () => {
  it('re-composes the stored cut-out for free, lists it with the job, and is 404 for other jobs', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await removeBackground(agent, {});
    const before = await money(t, user.id, job.id);
    const res = await agent
      .post(`/api/jobs/${job.id}/compose`)
      .field('crop_to_subject', 'true')
      .field('canvas', '4:5')
      .field('max_side', '250')
      .field('background_color', '#ffffff')
      .field('shadow', 'contact')
      .field('output_format', 'webp')
      .expect(201);
    const picture = res.body.payload as CompositionView;
    expect(picture).toMatchObject({ width: 200, height: 250, format: 'webp' });
    near(picture.subject_box!.left + picture.subject_box!.width / 2, 100);
    const meta = await sharp(await bytesOf(picture.url)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 200, 250]);
    // Free: no ledger row, the balance unchanged.
    expect(await money(t, user.id, job.id)).toEqual(before);
    const view = (await agent.get(`/api/jobs/${job.id}`).expect(200)).body.payload as JobView;
    expect(view.compositions).toEqual([{ ...picture, url: expect.any(String), thumbnail_url: expect.any(String) }]);

    // An edited matte: all white keeps the whole photo; a wrong size or a JPEG is refused.
    const white = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#fff' } })
      .greyscale()
      .png()
      .toBuffer();
    const whole = await agent.post(`/api/jobs/${job.id}/compose`).attach('matte', white, 'matte.png').expect(201);
    expect(whole.body.payload.subject_box).toEqual({ left: 0, top: 0, width: 300, height: 200 });
    const wrong = await agent
      .post(`/api/jobs/${job.id}/compose`)
      .attach('matte', await sharp(white).resize(150, 100).png().toBuffer(), 'matte.png')
      .expect(422);
    expect(wrong.body.errors.matte).toEqual([PRODUCT_PHOTO_MESSAGES.matteSize]);
    const jpeg = await agent
      .post(`/api/jobs/${job.id}/compose`)
      .attach('matte', await sharp(white).jpeg().toBuffer(), 'matte.jpg')
      .expect(422);
    expect(jpeg.body.errors.matte).toEqual([PRODUCT_PHOTO_MESSAGES.matteFormat]);
    const bad = await agent.post(`/api/jobs/${job.id}/compose`).field('margin', '50%').expect(422);
    expect(bad.body.errors.margin).toEqual([PRODUCT_PHOTO_MESSAGES.marginTooLarge]);

    // Another user's job, a job of another tool and an unknown id read the same.
    const other = await verifiedUser(t, { balanceTokens: 5 });
    await other.agent.post(`/api/jobs/${job.id}/compose`).field('canvas', '1:1').expect(404);
    const generated = await other.agent
      .post('/api/tools/generate')
      .send({ prompt: 'a cup', size: '1024x1024' })
      .expect(202);
    await waitForStatus(other.agent, generated.body.payload.id as string, ['succeeded']);
    await other.agent.post(`/api/jobs/${generated.body.payload.id as string}/compose`).expect(404);
    await other.agent.post('/api/jobs/00000000-0000-4000-8000-000000000000/compose').expect(404);
    expect(await money(t, user.id, job.id)).toEqual(before);
  });

  it('is rate-limited per user in Redis', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await removeBackground(agent, {});
    // COMPOSE_RATE_PER_MINUTE is 6 here.
    for (let i = 0; i < 6; i++) await agent.post(`/api/jobs/${job.id}/compose`).field('canvas', '1:1').expect(201);
    const limited = await agent.post(`/api/jobs/${job.id}/compose`).field('canvas', '1:1').expect(429);
    expect(limited.body.message).toBe(PRODUCT_PHOTO_MESSAGES.tooManyCompositions);
    expect(limited.headers['retry-after']).toBeDefined();
    // Another user still has their own allowance.
    const other = await verifiedUser(t, { balanceTokens: 5 });
    const theirs = await removeBackground(other.agent, {});
    await other.agent.post(`/api/jobs/${theirs.id}/compose`).expect(201);
  });

  it('retention deletes the stored cut-out and the compositions with the results', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await removeBackground(agent, {});
    const picture = (await agent.post(`/api/jobs/${job.id}/compose`).field('canvas', '1:1').expect(201)).body
      .payload as CompositionView;
    const keys = composeSourceKeys({ userId: user.id, jobId: job.id });
    const [row] = await t.ctx.db('image_jobs').where({ id: job.id }).select('compositions');
    const compositionKey = (row.compositions as { key: string }[])[0]!.key;
    for (const key of [keys.foregroundKey, keys.matteKey, compositionKey]) await t.ctx.storage.get(key);
    expect(picture.url).toContain(compositionKey);

    await t.ctx
      .db('image_jobs')
      .where({ id: job.id })
      .update({ finished_at: t.ctx.db.raw("now() - interval '400 days'") });
    expect(await expireOldResults(t.ctx)).toBeGreaterThanOrEqual(1);
    for (const key of [keys.foregroundKey, keys.matteKey, compositionKey])
      await expect(t.ctx.storage.get(key)).rejects.toThrow();
    const view = (await agent.get(`/api/jobs/${job.id}`).expect(200)).body.payload as JobView;
    expect([view.expired, view.compose_sources, view.compositions]).toEqual([true, null, []]);
    await agent.post(`/api/jobs/${job.id}/compose`).expect(404);
  });
});

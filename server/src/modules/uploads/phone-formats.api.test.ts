import sharp from 'sharp';
import type { BatchAccepted, BatchView, JobView } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import type { TestWorker } from '../../test/test-worker';
import { makeZip, waitForBatch } from '../batches/batches.test-support';
import { startJobEvents } from '../jobs/job-events';
import { money, waitForStatus, workerFor } from '../jobs/jobs.test-support';
import { UPLOAD_MESSAGES } from './image-inspect';
import { multiPageTiff, phoneFormatImage, pixelBombHeic, pixelBombTiff, solidImage } from './test-images';

/**
 * HEIC, AVIF and TIFF through the API's single tools and batches (ZIP entries included): accepted from their
 * bytes like JPEG, PNG and WebP, with the same limits and refusals, before anything is charged. The worker's
 * decoding of them is tested in worker/src/imaging/decode.test.ts and worker/src/pipelines/.
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

describe('phone and camera formats on the single tools', () => {
  it('takes a HEIC as sent, and AVIF and TIFF as lossless PNG copies, recording each size', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const expected = { heic: ['heic', 'heif'], avif: ['png', 'png'], tiff: ['png', 'png'] } as const;
    for (const format of ['heic', 'avif', 'tiff'] as const) {
      const bytes = await phoneFormatImage(format, 120, 80);
      const res = await agent
        .post('/api/tools/remove-background')
        .attach('image', bytes, { filename: `photo.${format}`, contentType: 'application/octet-stream' })
        .expect(202);
      const job = res.body.payload as JobView;
      const row = await t.ctx.db('image_jobs').where({ id: job.id }).first();
      const [extension, sharpFormat] = expected[format];
      expect(row.input_key).toBe(`inputs/${user.id}/${job.id}/input.${extension}`);
      expect([row.input_width, row.input_height]).toEqual([120, 80]);
      const stored = await t.ctx.storage.get(row.input_key);
      expect((await sharp(stored).metadata()).format).toBe(sharpFormat);
      if (format === 'heic') expect(stored.equals(bytes)).toBe(true);
      await waitForStatus(agent, job.id, ['succeeded']);
    }
    expect((await money(t, user.id)).balance).toBe(20);
  });

  it('checks the upscale output limit from a HEIC header, without decoding it', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    // 16 MP by its header: within the upload limit, but 64 MP is the most an upscale may make.
    const claimed = await pixelBombHeic(4000);
    const res = await agent.post('/api/tools/upscale').field('factor', '4').attach('image', claimed, 'a.heic');
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('64 megapixels');
    const small = await phoneFormatImage('heic', 64, 48);
    await agent.post('/api/tools/upscale').field('factor', '4').attach('image', small, 'b.heic').expect(202);
    expect((await money(t, user.id)).balance).toBeLessThan(50);
  });

  it('refuses TIFF and HEIC bombs, a multi-page TIFF and a damaged HEIC with a 422, charging nothing', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const heic = await phoneFormatImage('heic', 300, 200);
    const cases: Array<[string, Buffer, string]> = [
      ['tiff-bomb.tif', pixelBombTiff(30_000), UPLOAD_MESSAGES.tooManyPixels],
      ['heic-bomb.heic', await pixelBombHeic(20_000), UPLOAD_MESSAGES.tooManyPixels],
      ['pages.tif', await multiPageTiff(), UPLOAD_MESSAGES.multiPage],
      ['cut.heic', heic.subarray(0, Math.floor(heic.length / 2)), UPLOAD_MESSAGES.damaged],
    ];
    for (const [name, bytes, message] of cases) {
      const started = performance.now();
      const res = await agent.post('/api/tools/remove-background').attach('image', bytes, name);
      expect({ name, status: res.status, message: res.body.message }).toEqual({ name, status: 422, message });
      // Refused from the header: 900 MP would take far longer to decode (and gigabytes).
      expect(performance.now() - started).toBeLessThan(5000);
    }
    expect((await money(t, user.id)).balance).toBe(50);
    expect(await t.ctx.db('image_jobs').where({ user_id: user.id }).count('* as n').first()).toEqual({ n: '0' });
  });

  it('answers in German for the new refusals', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const res = await agent
      .post('/api/tools/remove-background')
      .field('lang_id', 'de')
      .attach('image', await multiPageTiff(), 'pages.tif')
      .expect(422);
    expect(res.body.message).toBe(
      'Dateien mit mehreren Bildern werden nicht unterstützt. Bitte laden Sie ein Bild pro Datei hoch.',
    );
  });
});

describe('phone and camera formats in batches', () => {
  it('runs a ZIP with HEIC, AVIF and TIFF entries beside a JPEG, and skips a TIFF bomb in it', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
    const archive = await makeZip([
      { name: 'phone/IMG_0001.HEIC', data: await phoneFormatImage('heic') },
      { name: 'phone/IMG_0002.avif', data: await phoneFormatImage('avif') },
      { name: 'scans/page.tiff', data: await phoneFormatImage('tiff'), compress: true },
      { name: 'scans/huge.tif', data: pixelBombTiff(30_000) },
      { name: 'shop/shoe.jpg', data: await solidImage('jpeg') },
    ]);
    const res = await agent
      .post('/api/batches')
      .field('tool', 'remove-background')
      .attach('archive', archive, 'photos.zip')
      .expect(202);
    const accepted = res.body.payload as BatchAccepted;
    expect(accepted.items.map((i) => i.file_name)).toEqual(['IMG_0001.HEIC', 'IMG_0002.avif', 'page.tiff', 'shoe.jpg']);
    expect(accepted.skipped).toEqual([{ file_name: 'scans/huge.tif', reasons: [UPLOAD_MESSAGES.tooManyPixels] }]);
    expect(accepted.cost).toBe(4);
    const keys = (await t.ctx.db('image_jobs').where({ user_id: user.id }).orderBy('batch_position')).map((r) =>
      String(r.input_key).split('.').pop(),
    );
    expect(keys).toEqual(['heic', 'avif', 'tiff', 'jpg']);
    const done = await waitForBatch(agent, accepted.id, (b: BatchView) => b.status === 'succeeded');
    expect(done.status).toBe('succeeded');
  });

  it('takes HEIC files chosen one by one', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 10 });
    const res = await agent
      .post('/api/batches')
      .field('tool', 'remove-background')
      .attach('images', await phoneFormatImage('heic'), 'a.heic')
      .attach('images', await phoneFormatImage('heic', 32, 32), 'b.heic')
      .expect(202);
    expect((res.body.payload as BatchAccepted).items.map((i) => i.file_name)).toEqual(['a.heic', 'b.heic']);
  });
});

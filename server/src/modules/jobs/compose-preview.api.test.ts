import fs from 'node:fs';
import sharp from 'sharp';
import type { CompositionView, JobView } from '@imagestudio/contracts';
import { fromProjectRoot } from '@imagestudio/runtime';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import { binaryParser } from '../../test/binary-parser';
import type { TestWorker } from '../../test/test-worker';
import { startJobEvents } from './job-events';
import { money, waitForStatus, workerFor } from './jobs.test-support';

/**
 * The editor's preview is the download: POST /api/jobs/{id}/compose/preview renders through the same engine call as
 * compose, at most 1024 px a side, so the download scaled to the preview's size shows the same picture. Run on the
 * photos of the worker's fixtures, each cut out by a soft-edged matte made here (the test worker takes an upload's
 * own alpha as the matte), so edges are half transparent as a model's are.
 */

const PHOTOS = ['astronaut', 'chelsea', 'coffee', 'motorcycle_left'];

/** Layouts as the editor sends them (its default first), and one with px margins on an aspect canvas. */
const LAYOUTS: Array<{ name: string; fields: Record<string, string> }> = [
  {
    name: 'the editor default: crop, 8% margin, white 2000 px square, JPEG',
    fields: {
      crop_to_subject: 'true',
      margin: '8%',
      canvas: '2000x2000',
      background_color: '#ffffff',
      output_format: 'jpeg',
      quality: '90',
    },
  },
  {
    name: 'a colour, a 12% margin and a drop shadow on a 4:5 canvas, PNG',
    fields: {
      crop_to_subject: 'true',
      margin: '12%',
      canvas: '1080x1350',
      background_color: '#19c3a6',
      shadow: 'drop',
      shadow_opacity: '0.6',
      output_format: 'png',
    },
  },
  {
    name: 'the blurred background, WebP',
    fields: {
      crop_to_subject: 'true',
      margin: '5%',
      canvas: '2000x2000',
      background_blur: '20',
      output_format: 'webp',
      quality: '95',
    },
  },
  {
    name: 'px margins on an aspect canvas capped by max_side, on transparency with a contact shadow',
    fields: {
      crop_to_subject: 'true',
      margin: '40px 80px',
      canvas: '4:5',
      max_side: '1350',
      shadow: 'contact',
      output_format: 'png',
    },
  },
];

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;

beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000', COMPOSE_RATE_PER_MINUTE: '100' });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, { tools: ['remove-background'] });
});

afterAll(async () => {
  await worker.close();
  await stopEvents();
  await t.close();
});

type Agent = Awaited<ReturnType<typeof verifiedUser>>['agent'];

/** The fixture photo with a soft elliptic matte as its alpha: a subject in the middle, background around it. */
async function cutoutOf(name: string): Promise<Buffer> {
  const photo = fs.readFileSync(fromProjectRoot(`worker/src/test-support/fixtures/${name}.png`));
  const { width, height } = await sharp(photo).metadata();
  const ellipse = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<rect width="100%" height="100%" fill="#000"/>` +
      `<ellipse cx="${width! * 0.5}" cy="${height! * 0.55}" rx="${width! * 0.3}" ry="${height! * 0.33}" fill="#fff"/>` +
      '</svg>',
  );
  const matte = await sharp(ellipse).blur(2).extractChannel(0).raw().toBuffer();
  // (The photos are RGB: a removeAlpha here would run after the join and drop the matte.)
  return sharp(photo)
    .joinChannel(matte, { raw: { width: width!, height: height!, channels: 1 } })
    .png()
    .toBuffer();
}

async function cutOut(agent: Agent, name: string): Promise<JobView> {
  const res = await agent
    .post('/api/tools/remove-background')
    .attach('image', await cutoutOf(name), `${name}.png`)
    .expect(202);
  return waitForStatus(agent, (res.body.payload as JobView).id, ['succeeded'], 20_000);
}

function post(agent: Agent, path: string, fields: Record<string, string>, files: Record<string, Buffer> = {}) {
  const req = agent.post(path);
  for (const [k, v] of Object.entries(fields)) req.field(k, v);
  for (const [k, v] of Object.entries(files)) req.attach(k, v, `${k}.png`);
  return req;
}

/** A preview's reply (200 expected), its body the image as a Buffer. */
function preview(agent: Agent, jobId: string, fields: Record<string, string>, files?: Record<string, Buffer>) {
  return post(agent, `/api/jobs/${jobId}/compose/preview`, fields, files).buffer(true).parse(binaryParser).expect(200);
}

/**
 * The mean absolute difference per channel between `a` and `b` scaled to `a`'s size, over premultiplied RGBA: a
 * pixel counts by what it shows (the colour under alpha 0 shows nowhere, and encoders may drop it).
 */
async function meanDifference(a: Buffer, b: Buffer): Promise<number> {
  const { data: pa, info } = await sharp(a).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const pb = await sharp(b).resize(info.width, info.height, { fit: 'fill' }).ensureAlpha().raw().toBuffer();
  let sum = 0;
  for (let i = 0; i < pa.length; i += 4) {
    const [aa, ab] = [pa[i + 3]! / 255, pb[i + 3]! / 255];
    for (let c = 0; c < 3; c++) sum += Math.abs(pa[i + c]! * aa - pb[i + c]! * ab);
    sum += Math.abs(pa[i + 3]! - pb[i + 3]!);
  }
  return sum / pa.length;
}

describe('POST /api/jobs/{id}/compose/preview', () => {
  it.each(PHOTOS)(
    '%s: the preview is the download scaled down, on every layout',
    async (name) => {
      const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
      const job = await cutOut(agent, name);
      const before = await money(t, user.id, job.id);
      for (const { name: layout, fields } of LAYOUTS) {
        const res = await preview(agent, job.id, fields);
        expect(res.headers['content-type']).toBe('image/webp');
        expect(res.headers['cache-control']).toBe('private, no-store');
        const shown = res.body as Buffer;
        const meta = await sharp(shown).metadata();
        const made = (await post(agent, `/api/jobs/${job.id}/compose`, fields).expect(201)).body
          .payload as CompositionView;
        const file = Buffer.from(await (await fetch(made.url)).arrayBuffer());
        // The same canvas, scaled by one factor to at most 1024 px a side.
        expect(meta.format).toBe('webp');
        expect(Math.max(meta.width!, meta.height!)).toBe(Math.min(1024, Math.max(made.width, made.height)));
        expect(Math.abs(meta.width! / meta.height! - made.width / made.height)).toBeLessThan(0.01);
        const difference = await meanDifference(shown, file);
        expect({ layout, difference: difference < 1 }).toEqual({ layout, difference: true });
      }
      // Previews are free and stored nowhere: no ledger row, and only the downloads are listed.
      expect(await money(t, user.id, job.id)).toEqual(before);
      const view = (await agent.get(`/api/jobs/${job.id}`).expect(200)).body.payload as JobView;
      expect(view.compositions).toHaveLength(LAYOUTS.length);
    },
    120_000,
  );

  it('takes the edited matte, answers the same 422s as compose, and is 404 for other jobs', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const job = await cutOut(agent, 'coffee');
    const fields = { crop_to_subject: 'true', margin: '0%', canvas: 'original', output_format: 'png' };
    // An all-white matte keeps the whole photo: the crop is the photo's own size.
    const white = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#fff' } })
      .greyscale()
      .png()
      .toBuffer();
    const whole = await sharp((await preview(agent, job.id, fields, { matte: white })).body as Buffer).metadata();
    expect([whole.width, whole.height]).toEqual([600, 400]);
    const cropped = await sharp((await preview(agent, job.id, fields)).body as Buffer).metadata();
    expect(cropped.width).toBeLessThan(600);

    const bad = await post(agent, `/api/jobs/${job.id}/compose/preview`, { margin: '50%' }).expect(422);
    expect(bad.body.errors).toEqual({ margin: ['Margin must be under 50% on each side.'] });
    const small = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const wrong = await post(agent, `/api/jobs/${job.id}/compose/preview`, {}, { matte: small }).expect(422);
    expect(wrong.body.errors).toEqual({ matte: ['The matte must be the size of the image.'] });
    const missing = await post(
      agent,
      `/api/jobs/${job.id}/compose/preview`,
      {},
      {
        background_image: Buffer.from('not an image'),
      },
    ).expect(422);
    expect(Object.keys(missing.body.errors as object)).toEqual(['background_image']);

    const other = await verifiedUser(t, { balanceTokens: 1 });
    await post(other.agent, `/api/jobs/${job.id}/compose/preview`, { canvas: '1:1' }).expect(404);
    await post(other.agent, '/api/jobs/00000000-0000-4000-8000-000000000000/compose/preview', {}).expect(404);
  });
});

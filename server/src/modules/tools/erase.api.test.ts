import sharp from 'sharp';
import type { JobView } from '@imagestudio/contracts';
import { ERASE_DEFAULT_PROMPT, ERASE_MESSAGES } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import { getSettings } from '../catalog';
import { startJobEvents } from '../jobs/job-events';
import { toolDefinition } from '../tool-definitions';
import { toToolSettings } from '../tool-definitions/tools.settings';
import { money, waitForStatus, workerFor } from '../jobs/jobs.test-support';
import { solidImage } from '../uploads/test-images';

// POST /api/tools/erase: honest availability, the mask's checks before charging, its own price, the refund of a
// failed job, ?wait, no batches, and the OpenAPI document.
let t: TestContext;
let stopEvents: () => Promise<void>;

beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000' });
  stopEvents = await startJobEvents(t.ctx);
});

afterAll(async () => {
  await stopEvents();
  await t.close();
});

/** A mask as the page sends it: `width` x `height`, transparent, with a white opaque square unless `empty`. */
async function mask(width = 64, height = 48, empty = false): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } });
  const square = { create: { width: 10, height: 10, channels: 4 as const, background: '#ffffff' } };
  return (empty ? base : base.composite([{ input: square, left: 5, top: 5 }])).png().toBuffer();
}

describe('POST /api/tools/erase', () => {
  it('answers 503 before charging while no worker has an images API, and the status says it is off', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const res = await agent
      .post('/api/tools/erase')
      .attach('image', await solidImage('png'), 'a.png')
      .attach('mask', await mask(), 'mask.png')
      .expect(503);
    expect(res.body).toEqual({
      status: 'ERROR',
      code: 'tool_unavailable',
      message: 'Erase is not available right now.',
    });
    expect((await money(t, user.id)).balance).toBe(50);
    const status = await agent.get('/api/tools/status').expect(200);
    expect(status.body.payload.erase).toMatchObject({ available: false });
  });

  it('refuses a missing, empty, misshapen or broken mask with 422 before charging', async () => {
    const worker = await workerFor(t, { tools: ['erase'] });
    try {
      const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
      const photo = await solidImage('png');
      const missing = await agent.post('/api/tools/erase').attach('image', photo, 'a.png').expect(422);
      expect(missing.body.errors).toEqual({ mask: [ERASE_MESSAGES.maskRequired] });
      const empty = await agent
        .post('/api/tools/erase')
        .attach('image', photo, 'a.png')
        .attach('mask', await mask(64, 48, true), 'mask.png')
        .expect(422);
      expect(empty.body.errors).toEqual({ mask: [ERASE_MESSAGES.maskEmpty] });
      // Black and opaque is as empty as transparent.
      const black = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#000000' } })
        .png()
        .toBuffer();
      await agent.post('/api/tools/erase').attach('image', photo, 'a.png').attach('mask', black, 'm.png').expect(422);
      const shape = await agent
        .post('/api/tools/erase?lang_id=de')
        .attach('image', photo, 'a.png')
        .attach('mask', await mask(48, 48), 'mask.png')
        .expect(422);
      expect(shape.body.errors).toEqual({ mask: ['Die Maske muss dieselbe Form wie das Foto haben.'] });
      const broken = await agent
        .post('/api/tools/erase')
        .attach('image', photo, 'a.png')
        .attach('mask', Buffer.from('not an image at all'), 'mask.png')
        .expect(422);
      expect(Object.keys(broken.body.errors)).toEqual(['mask']);
      expect((await money(t, user.id)).balance).toBe(100);

      // A mask at half the photo's size is the same shape: accepted.
      const half = await agent
        .post('/api/tools/erase')
        .attach('image', photo, 'a.png')
        .attach('mask', await mask(32, 24), 'mask.png')
        .expect(202);
      expect((half.body.payload as JobView).params).toMatchObject({ mask: true, output_format: 'png' });
    } finally {
      await worker.close();
    }
  });

  it('charges its own price, refunds a failed job, runs sync with ?wait, and is not batchable', async () => {
    const worker = await workerFor(t, { tools: ['erase'], behaviour: 'fail-unrecoverable' });
    try {
      // Its own price setting (the default, 1 token, here: the database is shared with other test files).
      const settings = await getSettings(t.ctx);
      expect(settings.erase_price).toBe(1);
      expect(toToolSettings({ ...settings, erase_price: 2.5 }).priceTenths.erase).toBe(25);
      const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
      const quote = await agent.get('/api/tools/quote?tool=erase').expect(200);
      expect(quote.body.payload).toMatchObject({ tool: 'erase', count: 1, cost: 1 });

      const res = await agent
        .post('/api/tools/erase')
        .attach('image', await solidImage('png'), 'a.png')
        .attach('mask', await mask(), 'mask.png')
        .expect(202);
      const job = res.body.payload as JobView;
      expect((await money(t, user.id)).balance).toBe(90);
      const failed = await waitForStatus(agent, job.id, ['failed']);
      expect(failed.refunded).toBe(true);
      expect(await money(t, user.id)).toMatchObject({ balance: 100, ledger: 100 });
      // What the worker is sent: the neutral prompt and the stored mask's key.
      expect(toolDefinition('erase').payload(job.params, 'inputs/x.png', { mask: 'inputs/x-mask.png' })).toEqual({
        inputKey: 'inputs/x.png',
        maskKey: 'inputs/x-mask.png',
        prompt: ERASE_DEFAULT_PROMPT,
        outputFormat: 'png',
      });

      worker.setBehaviour('succeed');
      const sync = await agent
        .post('/api/tools/erase?wait=20')
        .field('prompt', 'a plain wall')
        .field('output_format', 'webp')
        .attach('image', await solidImage('png'), 'a.png')
        .attach('mask', await mask(), 'mask.png')
        .expect(200);
      expect(sync.body.payload).toMatchObject({ status: 'succeeded', params: { prompt: 'a plain wall' } });
      expect((await money(t, user.id)).balance).toBe(90);
      // Run again from the stored photo and mask with another prompt: charged as a new job, the mask kept.
      const again = await agent
        .post(`/api/jobs/${(sync.body.payload as JobView).id}/rerun`)
        .send({ prompt: 'a brick wall' })
        .expect(202);
      expect(again.body.payload.params).toMatchObject({ mask: true, prompt: 'a brick wall' });
      await waitForStatus(agent, again.body.payload.id, ['succeeded']);
      expect((await money(t, user.id)).balance).toBe(80);

      await agent
        .post('/api/batches')
        .field('tool', 'erase')
        .attach('images', await solidImage('png'), 'a.png')
        .expect(422);
      expect((await money(t, user.id)).balance).toBe(80);
    } finally {
      await worker.close();
    }
  });

  it('is documented in the OpenAPI document as a multipart call with an image and a mask', async () => {
    const doc = (await t.agent().get('/api/openapi.json').expect(200)).body as {
      paths: Record<string, { post?: { requestBody?: { content?: Record<string, { schema?: unknown }> } } }>;
    };
    const form = doc.paths['/tools/erase']?.post?.requestBody?.content?.['multipart/form-data'] as {
      schema: { properties: Record<string, { contentMediaType?: string }>; required: string[] };
    };
    // The mask is documented as the file part it is, and required.
    expect(form.schema.properties.mask).toMatchObject({ type: 'string', contentMediaType: 'application/octet-stream' });
    expect(form.schema.required).toEqual(['image', 'mask']);
    expect(Object.keys(form.schema.properties)).toEqual(['image', 'mask', 'prompt', 'output_format', 'callback_url']);
  });
});

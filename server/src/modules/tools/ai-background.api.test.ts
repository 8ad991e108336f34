import type { JobView } from '@imagestudio/contracts';
import { AI_BACKGROUND_MESSAGES, AI_BACKGROUND_PRESETS } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import { getSettings } from '../catalog';
import { startJobEvents } from '../jobs/job-events';
import { toolDefinition } from '../tool-definitions';
import { toToolSettings } from '../tool-definitions/tools.settings';
import { money, waitForStatus, workerFor } from '../jobs/jobs.test-support';
import { solidImage } from '../uploads/test-images';

// POST /api/tools/ai-background: honest availability, its own price, the refund of a failed job, ?wait and batches.
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

describe('POST /api/tools/ai-background', () => {
  it('answers 503 before charging while no worker has an images API, and the status says it is off', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const res = await agent
      .post('/api/tools/ai-background')
      .field('preset', 'marble')
      .attach('image', await solidImage('png'), 'a.png')
      .expect(503);
    expect(res.body).toEqual({
      status: 'ERROR',
      code: 'tool_unavailable',
      message: 'AI background is not available right now.',
    });
    expect((await money(t, user.id)).balance).toBe(50);
    const status = await agent.get('/api/tools/status').expect(200);
    expect(status.body.payload['ai-background']).toMatchObject({ available: false });
  });

  it('charges its own price, sends the preset as its text, refunds a failed job, and runs sync with ?wait', async () => {
    const worker = await workerFor(t, { tools: ['ai-background'], behaviour: 'fail-unrecoverable' });
    try {
      // Its own price setting (the default, 1 token, here: the database is shared with other test files).
      const settings = await getSettings(t.ctx);
      expect(settings.ai_background_price).toBe(1);
      expect(toToolSettings({ ...settings, ai_background_price: 2.5 }).priceTenths['ai-background']).toBe(25);
      const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
      const quote = await agent.get('/api/tools/quote?tool=ai-background').expect(200);
      expect(quote.body.payload).toMatchObject({ tool: 'ai-background', count: 1, cost: 1 });

      const both = await agent
        .post('/api/tools/ai-background')
        .field('preset', 'marble')
        .field('prompt', 'a beach')
        .attach('image', await solidImage('png'), 'a.png')
        .expect(422);
      expect(both.body.message).toBe(AI_BACKGROUND_MESSAGES.promptOrPreset);
      const german = await agent
        .post('/api/tools/ai-background?lang_id=de')
        .field('preset', 'beach')
        .attach('image', await solidImage('png'), 'a.png')
        .expect(422);
      expect(german.body.message).toBe('Die Vorlage muss eine von studio-white, marble, outdoor, kitchen sein.');
      await agent
        .post('/api/tools/ai-background')
        .attach('image', await solidImage('png'), 'a.png')
        .expect(422);
      expect((await money(t, user.id)).balance).toBe(100);

      const res = await agent
        .post('/api/tools/ai-background')
        .field('preset', 'kitchen')
        .attach('image', await solidImage('png'), 'a.png')
        .expect(202);
      const job = res.body.payload as JobView;
      expect(job.params).toMatchObject({ preset: 'kitchen', output_format: 'png' });
      expect((await money(t, user.id)).balance).toBe(90);
      const failed = await waitForStatus(agent, job.id, ['failed']);
      expect(failed.refunded).toBe(true);
      expect(await money(t, user.id)).toMatchObject({ balance: 100, ledger: 100 });
      // What the worker is sent: the preset's own text.
      expect(toolDefinition('ai-background').payload(job.params, 'inputs/x.png', {})).toMatchObject({
        prompt: AI_BACKGROUND_PRESETS.kitchen,
        outputFormat: 'png',
      });

      worker.setBehaviour('succeed');
      const sync = await agent
        .post('/api/tools/ai-background?wait=20')
        .field('prompt', 'on a sunny beach')
        .field('output_format', 'webp')
        .attach('image', await solidImage('png'), 'a.png')
        .expect(200);
      expect(sync.body.payload).toMatchObject({ status: 'succeeded', params: { prompt: 'on a sunny beach' } });
      expect((await money(t, user.id)).balance).toBe(90);

      const batch = await agent
        .post('/api/batches')
        .field('tool', 'ai-background')
        .field('preset', 'outdoor')
        .attach('images', await solidImage('png'), 'a.png')
        .attach('images', await solidImage('jpeg'), 'b.jpg')
        .expect(202);
      expect(batch.body.payload.tool).toBe('ai-background');
      expect(batch.body.payload.items).toHaveLength(2);
      expect((await money(t, user.id)).balance).toBe(70);
    } finally {
      await worker.close();
    }
  });

  it('is documented in the OpenAPI document as a multipart call with a prompt or a preset', async () => {
    const doc = (await t.agent().get('/api/openapi.json').expect(200)).body as {
      paths: Record<string, { post?: { requestBody?: { content?: Record<string, { schema?: unknown }> } } }>;
    };
    const post = doc.paths['/tools/ai-background']?.post;
    const form = post?.requestBody?.content?.['multipart/form-data'];
    expect(JSON.stringify(form)).toContain('preset');
    expect(JSON.stringify(form)).toContain('studio-white');
  });
});

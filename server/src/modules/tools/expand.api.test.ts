import type { JobView } from '@imagestudio/contracts';
import { EXPAND_DEFAULT_PROMPT, EXPAND_MESSAGES } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import { getSettings } from '../catalog';
import { startJobEvents } from '../jobs/job-events';
import { toolDefinition } from '../tool-definitions';
import { money, waitForStatus, workerFor } from '../jobs/jobs.test-support';
import { solidImage } from '../uploads/test-images';

// POST /api/tools/expand: honest availability, the canvas checks before charging, its own price, the refund of a
// failed job, ?wait, batches and the OpenAPI document.
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

type Agent = Awaited<ReturnType<typeof verifiedUser>>['agent'];

/** One expand call with these fields and a photo (64x48 unless given); the reply's status is checked. */
async function expand(agent: Agent, fields: Record<string, string>, status: number, photo?: Buffer, query = '') {
  let req = agent.post(`/api/tools/expand${query}`);
  for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
  return req.attach('image', photo ?? (await solidImage('png')), 'a.png').expect(status);
}

describe('POST /api/tools/expand', () => {
  it('answers 503 before charging while no worker has an images API, and the status says it is off', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const res = await expand(agent, { aspect: '16:9' }, 503);
    expect(res.body).toEqual({
      status: 'ERROR',
      code: 'tool_unavailable',
      message: 'Image expansion is not available right now.',
    });
    expect((await money(t, user.id)).balance).toBe(50);
    const status = await agent.get('/api/tools/status').expect(200);
    expect(status.body.payload.expand).toMatchObject({ available: false });
  });

  it('refuses a bad canvas choice and a photo it cannot expand with a 422, charging nothing', async () => {
    const worker = await workerFor(t, { tools: ['expand'] });
    try {
      const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
      const both = await expand(agent, { aspect: '16:9', factor: '1.5' }, 422);
      expect(both.body.message).toBe(EXPAND_MESSAGES.aspectOrFactor);
      expect((await expand(agent, {}, 422)).body.message).toBe(EXPAND_MESSAGES.aspectOrFactor);
      expect((await expand(agent, { aspect: '21:9' }, 422)).body.message).toBe(EXPAND_MESSAGES.aspect);
      expect((await expand(agent, { factor: '5' }, 422)).body.message).toBe(EXPAND_MESSAGES.factor);
      expect((await expand(agent, { factor: 'wide' }, 422)).body.message).toBe(EXPAND_MESSAGES.factor);
      expect((await expand(agent, { factor: '2', position: 'middle' }, 422)).body.message).toBe(
        EXPAND_MESSAGES.position,
      );
      // A square photo cannot become square.
      const square = await solidImage('png', 48, 48);
      expect((await expand(agent, { aspect: '1:1' }, 422, square)).body.message).toBe(EXPAND_MESSAGES.sameShape);
      // At the size limit already, and a canvas past it; the message is translated with its numbers.
      const atLimit = await solidImage('png', 4096, 64);
      expect((await expand(agent, { aspect: '1:1' }, 422, atLimit)).body.message).toBe(
        EXPAND_MESSAGES.photoTooLarge('4096x64'),
      );
      const german = await expand(agent, { aspect: '1:1' }, 422, atLimit, '?lang_id=de');
      expect(german.body.message).toBe(
        'Das Foto hat bereits 4096x64 Pixel: Ein erweitertes Bild darf an seiner langen Seite höchstens 4096 Pixel haben.',
      );
      const big = await solidImage('png', 3000, 2000);
      const tooLarge = await expand(agent, { factor: '1.5' }, 422, big);
      expect(tooLarge.body.message).toBe(EXPAND_MESSAGES.canvasTooLarge('4500x3000'));
      expect((await money(t, user.id)).balance).toBe(100);
    } finally {
      await worker.close();
    }
  });

  it('charges its own price per photo, refunds a failed job, runs sync with ?wait and in batches', async () => {
    const worker = await workerFor(t, { tools: ['expand'], behaviour: 'fail-unrecoverable' });
    try {
      // Its own price setting (the default, 1 token, here: the database is shared with other test files).
      expect((await getSettings(t.ctx)).expand_price).toBe(1);
      const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
      const quote = await agent.get('/api/tools/quote?tool=expand').expect(200);
      expect(quote.body.payload).toMatchObject({ tool: 'expand', count: 1, cost: 1 });

      const res = await expand(agent, { aspect: '16:9', position: 'left' }, 202);
      const job = res.body.payload as JobView;
      expect(job.params).toMatchObject({ aspect: '16:9', position: 'left', output_format: 'png' });
      expect((await money(t, user.id)).balance).toBe(90);
      const failed = await waitForStatus(agent, job.id, ['failed']);
      expect(failed.refunded).toBe(true);
      expect(await money(t, user.id)).toMatchObject({ balance: 100, ledger: 100 });
      // What the worker is sent: the canvas choice and the default prompt.
      expect(toolDefinition('expand').payload(job.params, 'inputs/x.png', {})).toEqual({
        inputKey: 'inputs/x.png',
        aspect: '16:9',
        factor: undefined,
        position: 'left',
        prompt: EXPAND_DEFAULT_PROMPT,
        outputFormat: 'png',
      });

      worker.setBehaviour('succeed');
      const sync = await expand(agent, { factor: '1.5', prompt: 'more of the beach' }, 200, undefined, '?wait=20');
      expect(sync.body.payload).toMatchObject({
        status: 'succeeded',
        params: { factor: 1.5, position: 'center', prompt: 'more of the beach' },
      });
      expect((await money(t, user.id)).balance).toBe(90);

      const batch = await agent
        .post('/api/batches')
        .field('tool', 'expand')
        .field('aspect', '1:1')
        .field('position', 'top')
        .attach('images', await solidImage('png'), 'a.png')
        .attach('images', await solidImage('jpeg'), 'b.jpg')
        .attach('images', await solidImage('webp', 40, 60), 'c.webp')
        .expect(202);
      expect(batch.body.payload.tool).toBe('expand');
      expect(batch.body.payload.items).toHaveLength(3);
      expect((await money(t, user.id)).balance).toBe(60);

      // One photo the canvas cannot take fails the whole batch before anything is charged, naming it.
      const refused = await agent
        .post('/api/batches')
        .field('tool', 'expand')
        .field('aspect', '1:1')
        .attach('images', await solidImage('png'), 'a.png')
        .attach('images', await solidImage('png', 48, 48), 'square.png')
        .expect(422);
      expect(refused.body.errors).toEqual({ 'square.png': [EXPAND_MESSAGES.sameShape] });
      expect((await money(t, user.id)).balance).toBe(60);
    } finally {
      await worker.close();
    }
  });

  it('is documented in the OpenAPI document as a multipart call with its canvas fields', async () => {
    const doc = (await t.agent().get('/api/openapi.json').expect(200)).body as {
      paths: Record<string, { post?: { requestBody?: { content?: Record<string, { schema?: unknown }> } } }>;
    };
    const form = JSON.stringify(doc.paths['/tools/expand']?.post?.requestBody?.content?.['multipart/form-data']);
    for (const word of ['aspect', '16:9', 'factor', 'position', 'bottom', 'prompt']) expect(form).toContain(word);
  });
});

import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import { startJobEvents } from '../jobs/job-events';
import { money, waitFor, waitForStatus, workerFor } from '../jobs/jobs.test-support';
import { solidImage } from '../uploads/test-images';
import { removeBackgroundDefinition } from './remove-background.definition';

/**
 * Background removal's model choice: `standard` (every worker) or `hq` (an operator's own model, advertised only
 * by workers where it passed its start checks). Asking for hq while no live worker offers it is a 422 on the
 * `model` field before anything is charged.
 */

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

it('refuses hq with 422 while no live worker offers it, runs it once one does', async () => {
  // A worker without the operator's model: no models advertised, as before the choice existed.
  const plain = await workerFor(t, { tools: ['remove-background'], models: {} });
  let hq: Awaited<ReturnType<typeof workerFor>> | undefined;
  try {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
    const before = (await money(t, user.id)).balance;
    expect((await agent.get('/api/tools/status').expect(200)).body.payload['remove-background'].models).toEqual([]);

    const unknown = await agent
      .post('/api/tools/remove-background')
      .field('model', 'best')
      .attach('image', await solidImage('png'), 'a.png')
      .expect(422);
    expect(unknown.body.errors).toEqual({ model: ['Model must be one of standard, hq.'] });
    const unavailable = await agent
      .post('/api/tools/remove-background')
      .field('model', 'hq')
      .attach('image', await solidImage('png'), 'a.png')
      .expect(422);
    expect(unavailable.body.errors).toEqual({
      model: ['This model is not available right now. Please choose another one.'],
    });
    expect((await money(t, user.id)).balance).toBe(before);

    // The standard model needs no advertising: stored params look as they did before the choice.
    const standard = await agent
      .post('/api/tools/remove-background')
      .field('model', 'standard')
      .attach('image', await solidImage('png'), 'a.png')
      .expect(202);
    expect(standard.body.payload.params).toEqual({ output_format: 'png', mask_only: false });
    await waitForStatus(agent, standard.body.payload.id, ['succeeded']);

    hq = await workerFor(t, { tools: ['remove-background'], models: { 'remove-background': ['standard', 'hq'] } });
    // The status read is cached for a second: the new worker shows up on a later read.
    const models = await waitFor(async () => {
      const offered = (await agent.get('/api/tools/status').expect(200)).body.payload['remove-background'].models;
      return offered.length > 0 ? (offered as string[]) : undefined;
    });
    expect(models).toEqual(['standard', 'hq']);
    const ok = await agent
      .post('/api/tools/remove-background')
      .field('model', 'hq')
      .attach('image', await solidImage('png'), 'a.png')
      .expect(202);
    expect(ok.body.payload.params).toEqual({ output_format: 'png', mask_only: false, model: 'hq' });
    await waitForStatus(agent, ok.body.payload.id, ['succeeded']);
  } finally {
    await hq?.close();
    await plain.close();
  }
});

it('queues the chosen model (standard for rows from before the choice)', () => {
  const payload = (params: Record<string, string | boolean>) =>
    removeBackgroundDefinition.payload({ output_format: 'png', mask_only: false, ...params }, 'in/key', {});
  expect(payload({ model: 'hq' })).toMatchObject({ inputKey: 'in/key', model: 'hq' });
  expect(payload({})).toMatchObject({ model: 'standard' });
});

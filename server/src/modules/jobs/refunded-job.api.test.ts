import sharp from 'sharp';
import type { JobView } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { TEST_PASSWORD, verifiedUser } from '../../test/auth-helpers';
import type { TestWorker } from '../../test/test-worker';
import { startJobEvents } from './job-events';
import { waitForStatus, workerFor } from './jobs.test-support';

/**
 * A job whose cost an operator gave back: what the customer already has stays theirs until retention (results and
 * earlier pictures download), but free re-composition ends with the payment it rested on (404, like a job whose
 * files are gone).
 */

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;

beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000', COMPOSE_RATE_PER_MINUTE: '1000' });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, { tools: ['remove-background'] });
});

afterAll(async () => {
  await worker.close();
  await stopEvents();
  await t.close();
});

it('keeps a refunded job downloadable until retention but refuses to re-compose it', async () => {
  const customer = await verifiedUser(t, { balanceTokens: 5 });
  const operator = await verifiedUser(t);
  await t.ctx.db('users').where({ id: operator.user.id }).update({ role: 'admin' });

  // The test worker takes an upload's own alpha as its matte: a square on a transparent ground.
  const cutout = await sharp({
    create: { width: 120, height: 80, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([
      { input: { create: { width: 40, height: 40, channels: 4, background: '#c0392b' } }, left: 40, top: 20 },
    ])
    .png()
    .toBuffer();
  const submitted = await customer.agent.post('/api/tools/remove-background').attach('image', cutout, 'cup.png');
  expect(submitted.status).toBe(202);
  const job = await waitForStatus(customer.agent, (submitted.body.payload as JobView).id, ['succeeded'], 20_000);
  const compose = () => customer.agent.post(`/api/jobs/${job.id}/compose`).field('canvas', '200x200');
  await compose().expect(201);

  await operator.agent.post('/api/admin/confirm-password').send({ password: TEST_PASSWORD }).expect(200);
  await operator.agent.post(`/api/admin/jobs/${job.id}/refund`).send({ reason: 'Bad cut-out' }).expect(200);

  const refused = await compose();
  expect([refused.status, refused.body.code]).toEqual([404, 'not_found']);
  const after = (await customer.agent.get(`/api/jobs/${job.id}`).expect(200)).body.payload as JobView;
  expect(after.compose_sources).toBeNull();
  expect(after.compositions).toHaveLength(1);
  expect(after.results).toHaveLength(1);
  for (const url of [after.results[0]!.url, after.compositions![0]!.url]) {
    expect((await fetch(url)).status).toBe(200);
  }
}, 60_000);

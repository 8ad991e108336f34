import sharp from 'sharp';
import type { JobView } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import type { TestWorker } from '../../test/test-worker';
import { startJobEvents } from '../jobs/job-events';
import { money, waitForStatus, workerFor } from '../jobs/jobs.test-support';

let t: TestContext;
let worker: TestWorker;
let stopEvents: () => Promise<void>;

beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000' });
  stopEvents = await startJobEvents(t.ctx);
  worker = await workerFor(t, { tools: ['remove-background', 'generate', 'upscale'] });
});

afterAll(async () => {
  await worker.close();
  await stopEvents();
  await t.close();
});

const photo = () =>
  sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 1 } } })
    .png()
    .toBuffer();

describe('POST /api/jobs/{id}/rerun', () => {
  it('runs a job again from its stored input and options, as a new job charged again', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 10 });
    const first = await agent
      .post('/api/tools/remove-background')
      .field('background_color', '#ff0000')
      .field('output_format', 'jpeg')
      .attach('image', await photo(), 'leaf.png')
      .expect(202);
    const done = await waitForStatus(agent, (first.body.payload as JobView).id, ['succeeded']);

    const res = await agent.post(`/api/jobs/${done.id}/rerun`).expect(202);
    const again = res.body.payload as JobView;
    expect(again.id).not.toBe(done.id);
    expect(again).toMatchObject({ tool: 'remove-background', input_name: 'leaf.png', params: done.params });
    expect((await money(t, user.id, again.id)).keys).toEqual([`job:${again.id}:charge=-10`]);
    // The input is a copy: deleting the first job leaves the re-run its own.
    await agent.delete(`/api/jobs/${done.id}`).expect(200);
    const rerun = await waitForStatus(agent, again.id, ['succeeded']);
    expect(rerun.results[0]).toMatchObject({ format: 'jpeg' });
    expect(rerun.input_url).not.toBeNull();
    expect((await money(t, user.id)).balance).toBe(80);

    // With other options in the body: checked as the tool's own call checks them, the stored input again.
    const webp = await agent.post(`/api/jobs/${again.id}/rerun`).send({ output_format: 'webp' }).expect(202);
    expect((webp.body.payload as JobView).params).toMatchObject({ output_format: 'webp' });
    const bad = await agent.post(`/api/jobs/${again.id}/rerun`).send({ output_format: 'bmp' }).expect(422);
    expect(Object.keys(bad.body.errors as object)).toContain('output_format');
    expect((await waitForStatus(agent, (webp.body.payload as JobView).id, ['succeeded'])).results[0]).toMatchObject({
      format: 'webp',
    });

    // Once its files are gone there is nothing to run again.
    const gone = await agent.post(`/api/jobs/${done.id}/rerun`).expect(409);
    expect(gone.body.message).toBe('The image of this job is no longer stored. Upload it again.');
  });

  it("answers 404 for another user's job and 402 when the balance is short", async () => {
    const owner = await verifiedUser(t, { balanceTokens: 1 });
    const first = await owner.agent
      .post('/api/tools/remove-background')
      .attach('image', await photo(), 'a.png')
      .expect(202);
    const done = await waitForStatus(owner.agent, (first.body.payload as JobView).id, ['succeeded']);
    const other = await verifiedUser(t, { balanceTokens: 10 });
    await other.agent.post(`/api/jobs/${done.id}/rerun`).expect(404);
    await owner.agent.post(`/api/jobs/${done.id}/rerun`).expect(402);
  });
});

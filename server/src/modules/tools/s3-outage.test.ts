import { UNAVAILABLE_MESSAGE } from '../../http/error-handler';
import { verifiedUser } from '../../test/auth-helpers';
import { createTestContext, type TestContext } from '../../test/harness';
import type { TestWorker } from '../../test/test-worker';
import { money, workerFor } from '../jobs/jobs.test-support';
import { solidImage } from '../uploads/test-images';

/** S3 unreachable while a tool is submitted: 503 service_unavailable, nothing charged, no job. */
describe('an S3 outage', () => {
  let s3: TestContext;
  let t: TestContext;
  let worker: TestWorker;
  beforeAll(async () => {
    // The S3 this app talks to is another context's embedded server, which the test then stops.
    s3 = await createTestContext();
    t = await createTestContext({ S3_ENDPOINT: s3.ctx.storage.endpoint });
    worker = await workerFor(t, { tools: ['remove-background', 'generate'] });
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
    await s3.close();
  });

  it('answers an upload with 503 and charges nothing', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 2 });
    await s3.ctx.storage.close();
    const res = await agent
      .post('/api/tools/remove-background')
      .attach('image', await solidImage('png'), { filename: 'a.png', contentType: 'image/png' });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'ERROR', code: 'service_unavailable', message: UNAVAILABLE_MESSAGE });
    expect((await money(t, user.id)).balance).toBe(20);
    expect(await t.ctx.db('image_jobs').where({ user_id: user.id }).count('* as n').first()).toEqual({ n: '0' });
  });
});

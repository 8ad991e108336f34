import { HEARTBEAT_TTL_SECONDS, type JobView, heartbeatKey } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import { recordFailed } from '../jobs/finalize.service';
import { money, waitForStatus } from '../jobs/jobs.test-support';

// Workers whose tools run on different providers (a hosted images API for generation), and the failures such a
// worker reports for users. Heartbeats are written here directly: no job in this file is consumed.
let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});

afterAll(async () => {
  await t.close();
});

async function beat(workerId: string, value: Record<string, unknown>): Promise<void> {
  const body = { workerId, concurrency: 4, version: 'test', at: new Date().toISOString(), ...value };
  await t.ctx.queueRedis.set(heartbeatKey(t.config.QUEUE_PREFIX, workerId), JSON.stringify(body), {
    expiration: { type: 'EX', value: HEARTBEAT_TTL_SECONDS },
  });
}

describe('tools on a hosted images API', () => {
  it("GET /api/tools/status names each tool's own provider, local ones first", async () => {
    await beat('api-worker', {
      tools: ['generate', 'upscale'],
      provider: 'remote:gpt-image-1',
      providers: { generate: 'remote:gpt-image-1', upscale: 'cpu' },
      precisions: { upscale: 'int8' },
    });
    // A worker from before per-tool providers: its one provider covers its tools.
    await beat('old-worker', { tools: ['remove-background'], provider: 'cuda' });
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const status = await agent.get('/api/tools/status').expect(200);
    // The three tools these workers run (any other tool of the registry is simply not available).
    const { generate, 'remove-background': removeBackground, upscale } = status.body.payload;
    expect({ generate, 'remove-background': removeBackground, upscale }).toEqual({
      generate: { available: true, provider: 'remote:gpt-image-1', models: [] },
      'remove-background': { available: true, provider: 'cuda', models: [] },
      upscale: { available: true, provider: 'cpu', precision: 'int8', models: [] },
    });
  });

  it('a declined prompt fails the job with the plain message and refunds it; other worker reasons stay operator detail', async () => {
    await beat('api-worker', { tools: ['generate'], provider: 'remote:gpt-image-1' });
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    const submit = async (prompt: string) =>
      (await agent.post('/api/tools/generate').send({ prompt, size: '1024x1024' }).expect(202)).body.payload as JobView;
    const declined = await submit('first');
    const broken = await submit('second');
    expect((await money(t, user.id)).balance).toBe(30);

    await recordFailed(
      t.ctx,
      declined.id,
      'The image service declined this prompt. (images API: HTTP 400 moderation_blocked: rejected by the safety system)',
    );
    await recordFailed(t.ctx, broken.id, 'internal: something only an operator should read');
    const a = await waitForStatus(agent, declined.id, ['failed']);
    const b = await waitForStatus(agent, broken.id, ['failed']);
    expect([a.error, a.refunded]).toEqual(['The image service declined this prompt.', true]);
    expect([b.error, b.refunded]).toEqual(['The image could not be processed. Your tokens have been refunded.', true]);
    expect(await money(t, user.id)).toMatchObject({ balance: 50, ledger: 50 });
    const detail = await t.ctx.db('image_jobs').where({ id: declined.id }).first('error_detail');
    expect(detail.error_detail).toContain('moderation_blocked');
  });
});

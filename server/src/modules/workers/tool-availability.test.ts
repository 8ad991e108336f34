import {
  HEARTBEAT_KEY_PREFIX,
  JOB_MESSAGES,
  UPSCALE_MODELS,
  heartbeatKey,
  type WorkerHeartbeat,
} from '@imagestudio/contracts';
import { AppError } from '../../lib/errors';
import { fakeQueueRedis, testConfig, type FakeQueueRedis } from '../../test/fakes';
import {
  assertToolAvailable,
  assertUpscaleModelAvailable,
  createHeartbeatCache,
  toolStatus,
} from './tool-availability';
import type { WorkersDeps } from './workers.deps';

/** Which tools are offered, where and with which models, read from worker heartbeats in a fake queue Redis. */
const PREFIX = 'unit';

function beat(workerId: string, extra: Partial<WorkerHeartbeat>): WorkerHeartbeat {
  return { workerId, tools: [], models: {}, provider: 'cpu', concurrency: 1, version: '1', at: '', ...extra };
}

function setup(
  prefix = PREFIX,
  env: Record<string, string> = {},
): { ctx: WorkersDeps; redis: FakeQueueRedis; add(b: WorkerHeartbeat): void } {
  const redis = fakeQueueRedis();
  const ctx: WorkersDeps = {
    config: testConfig({ QUEUE_PREFIX: prefix, ...env }),
    queueRedis: redis.client,
    services: { heartbeats: createHeartbeatCache() },
  };
  return { ctx, redis, add: (b) => redis.set(heartbeatKey(prefix, b.workerId), JSON.stringify(b)) };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

afterEach(() => jest.restoreAllMocks());

describe('toolStatus', () => {
  it('offers nothing without a live worker', async () => {
    const { ctx } = setup();
    const status = await toolStatus(ctx);
    for (const tool of Object.values(status)) expect(tool).toEqual({ available: false, provider: null, models: [] });
  });

  it('offers what some worker advertises, on its fastest provider, with the precision it runs there', async () => {
    const { ctx, add } = setup();
    add(beat('cpu-1', { tools: ['upscale', 'remove-background'], precisions: { upscale: 'int8' } }));
    add(beat('gpu-1', { tools: ['upscale'], provider: 'cuda', precisions: { upscale: 'fp16' } }));
    add(beat('hosted', { tools: ['generate'], provider: 'remote:images-api' }));
    const status = await toolStatus(ctx);
    expect(status.upscale).toMatchObject({ available: true, provider: 'cuda', precision: 'fp16' });
    expect(status['remove-background']).toMatchObject({ available: true, provider: 'cpu' });
    expect(status.generate).toMatchObject({ available: true, provider: 'remote:images-api' });
  });

  it('ranks a hosted provider after local ones and uses per-tool providers over the worker-wide one', async () => {
    const { ctx, add } = setup();
    add(beat('hosted', { tools: ['upscale'], provider: 'remote:images-api' }));
    add(beat('mixed', { tools: ['generate', 'upscale'], provider: 'remote:x', providers: { upscale: 'webgpu' } }));
    const status = await toolStatus(ctx);
    expect(status.upscale.provider).toBe('webgpu');
    expect(status.generate.provider).toBe('remote:x');
  });

  it('lists models in the contract order, then models only newer workers know, sorted', async () => {
    const { ctx, add } = setup();
    add(beat('a', { tools: ['upscale'], models: { upscale: ['fast', 'zz-new', 'photo'] } }));
    add(beat('b', { tools: ['upscale'], models: { upscale: ['aa-new', 'photo'] } }));
    expect((await toolStatus(ctx)).upscale.models).toEqual(['photo', 'fast', 'aa-new', 'zz-new']);
  });

  it('ignores malformed heartbeats and those of another queue prefix', async () => {
    const { ctx, redis, add } = setup();
    redis.set(heartbeatKey(PREFIX, 'broken'), '{not json');
    redis.set(heartbeatKey(PREFIX, 'wrong'), JSON.stringify({ workerId: 'wrong', tools: ['upscale'] }));
    redis.set(heartbeatKey('other', 'x'), JSON.stringify(beat('x', { tools: ['upscale'] })));
    add(beat('ok', { tools: ['generate'] }));
    const status = await toolStatus(ctx);
    expect(status.upscale.available).toBe(false);
    expect(status.generate.available).toBe(true);
  });

  it('reads the bare key form too on the default prefix', async () => {
    const { ctx, redis } = setup('bull');
    redis.set(`${HEARTBEAT_KEY_PREFIX}old`, JSON.stringify(beat('old', { tools: ['upscale'] })));
    expect((await toolStatus(ctx)).upscale.available).toBe(true);
  });
});

describe('workers started on demand (WORKERS_ON_DEMAND)', () => {
  it('offers such a tool with no live worker, with every model, so that its jobs queue and wake a worker', async () => {
    const { ctx } = setup(PREFIX, { WORKERS_ON_DEMAND: 'upscale, remove-background' });
    const status = await toolStatus(ctx);
    expect(status.upscale).toEqual({
      available: true,
      provider: null,
      models: [...UPSCALE_MODELS],
      onDemand: true,
    });
    expect(status['remove-background']).toMatchObject({ available: true, onDemand: true });
    expect(status.generate).toEqual({ available: false, provider: null, models: [] });
    await expect(assertToolAvailable(ctx, 'upscale')).resolves.toBeUndefined();
    await expect(assertUpscaleModelAvailable(ctx, 'illustration')).resolves.toBeUndefined();
    const refused = await rejection(assertToolAvailable(ctx, 'generate'));
    expect([refused.status, refused.code]).toEqual([503, 'tool_unavailable']);
  });

  it('describes a live worker as it is, not as on demand', async () => {
    const { ctx, add } = setup(PREFIX, { WORKERS_ON_DEMAND: 'upscale' });
    add(beat('gpu-1', { tools: ['upscale'], provider: 'cuda', models: { upscale: ['photo'] } }));
    expect((await toolStatus(ctx)).upscale).toEqual({ available: true, provider: 'cuda', models: ['photo'] });
  });

  it('refuses a name the registry does not know', () => {
    expect(() => testConfig({ WORKERS_ON_DEMAND: 'upscale,sharpen' })).toThrow(/WORKERS_ON_DEMAND/);
  });
});

describe('the heartbeat cache', () => {
  it('reuses a positive read for a second, then reads again', async () => {
    const { ctx, redis, add } = setup();
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    add(beat('a', { tools: ['upscale'] }));
    await toolStatus(ctx);
    redis.delete(heartbeatKey(PREFIX, 'a'));
    expect((await toolStatus(ctx)).upscale.available).toBe(true);
    expect(redis.calls.mGet).toBe(1);
    now.mockReturnValue(1_001_000);
    expect((await toolStatus(ctx)).upscale.available).toBe(false);
  });

  it('never keeps an empty read: a worker that just started is seen at once', async () => {
    const { ctx, add } = setup();
    expect((await toolStatus(ctx)).generate.available).toBe(false);
    add(beat('new', { tools: ['generate'] }));
    expect((await toolStatus(ctx)).generate.available).toBe(true);
  });

  it('reads afresh when the cached workers lack the tool asked for', async () => {
    const { ctx, add } = setup();
    add(beat('a', { tools: ['upscale'] }));
    await toolStatus(ctx);
    add(beat('b', { tools: ['generate'] }));
    await expect(assertToolAvailable(ctx, 'generate')).resolves.toBeUndefined();
  });
});

describe('assertions before charging', () => {
  it('answers 503 tool_unavailable when no worker runs the tool, and 503 queue-busy when Redis is gone', async () => {
    const { ctx, redis } = setup();
    const none = await rejection(assertToolAvailable(ctx, 'upscale'));
    expect([none.status, none.code]).toEqual([503, 'tool_unavailable']);
    redis.down = true;
    const down = await rejection(assertToolAvailable(ctx, 'upscale'));
    expect([down.status, down.message]).toEqual([503, JOB_MESSAGES.queueBusy]);
  });

  it('refuses an upscaling model no live worker offers (422), and leaves "no upscaler" to the 503', async () => {
    const { ctx, redis, add } = setup();
    await expect(assertUpscaleModelAvailable(ctx, 'photo')).resolves.toBeUndefined();
    add(beat('a', { tools: ['upscale'], models: { upscale: ['photo'] } }));
    await expect(assertUpscaleModelAvailable(ctx, 'photo')).resolves.toBeUndefined();
    const refused = await rejection(assertUpscaleModelAvailable(ctx, 'illustration'));
    expect([refused.status, refused.errors]).toEqual([422, { model: [JOB_MESSAGES.modelUnavailable] }]);
    // A worker offering it that started a moment ago is found by the fresh read.
    add(beat('b', { tools: ['upscale'], models: { upscale: ['illustration'] } }));
    const before = redis.calls.mGet;
    await expect(assertUpscaleModelAvailable(ctx, 'illustration')).resolves.toBeUndefined();
    expect(redis.calls.mGet).toBe(before + 1);
  });
});

import { randomUUID } from 'node:crypto';
import { DEFAULT_UPSCALE_MODEL, jobPayloadSchemas, type JobPayloads } from '@imagestudio/contracts';
import { type RedisClient, connectRedis } from '@imagestudio/runtime';
import { TEST_QUEUE_REDIS_DB, TEST_REDIS_URL } from '@imagestudio/runtime/testing';
import { enqueueJobs } from '../modules/jobs/enqueue-jobs';
import { type ImagesQueue, addJobs, createQueue } from './queue';

function upscalePayload(): JobPayloads['upscale'] {
  return {
    jobId: randomUUID(),
    userId: randomUUID(),
    inputKey: 'inputs/u/j/input.png',
    factor: 2,
    model: DEFAULT_UPSCALE_MODEL,
    outputFormat: 'png',
  };
}

/**
 * Never called: `npm run typecheck` (tsc -b, which checks the tests) fails when a line marked @ts-expect-error
 * compiles, so each call below stays a compile error: a payload under another tool's name.
 */
export function wrongPayloadsDoNotCompile(queue: ImagesQueue, enqueue: typeof enqueueJobs): void {
  const upscale = upscalePayload();
  // @ts-expect-error an upscale payload is not a generate payload (no prompt, count, size or seed)
  void addJobs(queue, 'generate', [{ data: upscale, opts: { jobId: upscale.jobId } }]);
  // @ts-expect-error nor a background removal's (no maskOnly; its output formats differ)
  void addJobs(queue, 'remove-background', [{ data: upscale, opts: { jobId: upscale.jobId } }]);
  // @ts-expect-error a job name the contract does not have
  void addJobs(queue, 'no-such-tool', [{ data: upscale, opts: { jobId: upscale.jobId } }]);
  // @ts-expect-error the service that admits jobs is typed the same way
  void enqueue(undefined as never, 'generate', [], [upscale]);
  // The right payload under its own name compiles.
  void addJobs(queue, 'upscale', [{ data: upscale, opts: { jobId: upscale.jobId } }]);
}

describe('the typed queue', () => {
  let redis: RedisClient;
  let queue: ImagesQueue;
  beforeAll(async () => {
    redis = await connectRedis(TEST_REDIS_URL, { database: TEST_QUEUE_REDIS_DB });
    // A prefix of its own: no test worker takes these jobs.
    queue = createQueue(redis, `typed-queue-${randomUUID()}`, { attempts: 3, firstRetryDelayMs: 1000 });
  });
  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    await redis.quit();
  });

  it('adds one job, or several in one call, under the tool name with its payload and the row id', async () => {
    const one = upscalePayload();
    const two = [upscalePayload(), upscalePayload()];
    await addJobs(queue, 'upscale', [{ data: one, opts: { jobId: one.jobId } }]);
    await addJobs(
      queue,
      'upscale',
      two.map((data) => ({ data, opts: { jobId: data.jobId, priority: 3 } })),
    );
    for (const payload of [one, ...two]) {
      const job = await queue.getJob(payload.jobId);
      expect({ name: job?.name, data: job?.data, attempts: job?.opts.attempts }).toEqual({
        name: 'upscale',
        data: payload,
        attempts: 3,
      });
    }
    expect((await queue.getJob(two[1]!.jobId))?.opts.priority).toBe(3);
  });

  it('leaves the run-time check to the worker too: a payload of another tool fails its schema', () => {
    expect(jobPayloadSchemas.generate.safeParse(upscalePayload()).success).toBe(false);
    expect(jobPayloadSchemas.upscale.safeParse(upscalePayload()).success).toBe(true);
  });
});

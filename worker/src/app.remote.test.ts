import { TEST_QUEUE_REDIS_DB, TEST_REDIS_URL } from '@imagestudio/runtime/testing';
import { randomUUID } from 'node:crypto';
import { heartbeatKey, jobResultSchema, userFailureMessage, workerHeartbeatSchema } from '@imagestudio/contracts';
import { createLogger } from '@imagestudio/runtime';
import { type RunningWorker, startWorker } from './app';
import { loadWorkerConfig } from './config';
import { FakeImagesApi } from './generation-api/test-support/fake-images-api';
import { startLocalS3, type LocalS3 } from './test-support/local-s3';
import { type QueueClient, openQueueClient } from './test-support/queue-client';

// A generation-only worker (WORKER_TOOLS=generate) on a hosted images API, through real BullMQ, Redis and S3.
const REDIS_URL = TEST_REDIS_URL;
const QUEUE_DB = TEST_QUEUE_REDIS_DB;
const BUCKET = 'worker-remote-test';

describe('API-only generation worker end to end', () => {
  const prefix = `wremote-${randomUUID().slice(0, 8)}`;
  let s3: LocalS3;
  let api: FakeImagesApi;
  let running: RunningWorker;
  let client: QueueClient;

  beforeAll(async () => {
    s3 = await startLocalS3(BUCKET);
    api = await FakeImagesApi.start();
    const config = loadWorkerConfig({
      REDIS_URL,
      QUEUE_REDIS_DB: String(QUEUE_DB),
      QUEUE_PREFIX: prefix,
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: BUCKET,
      WORKER_TOOLS: 'generate',
      GENERATION_API_URL: api.baseUrl,
      GENERATION_API_KEY: 'sk-e2e',
      GENERATION_API_CONCURRENCY: '3',
      WORKER_WARMUP_RUNS: '0',
    });
    running = await startWorker(config, createLogger('silent', 'test'));
    client = await openQueueClient(REDIS_URL, QUEUE_DB, prefix);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await client?.close();
    await api?.close();
    await s3?.stop();
  });

  const submit = (name: string, data: Record<string, unknown>) =>
    client.submit(name, { userId: randomUUID(), ...data });

  it('offers only generate, as remote:<model>, with the API concurrency', async () => {
    expect(running.available).toEqual(['generate']);
    const beat = workerHeartbeatSchema.parse(
      JSON.parse((await client.redis.get(heartbeatKey(prefix, running.workerId)))!),
    );
    expect(beat).toMatchObject({
      tools: ['generate'],
      provider: 'remote:gpt-image-1',
      providers: { generate: 'remote:gpt-image-1' },
      concurrency: 3,
    });
  });

  it('runs a generate job through the API, and a declined prompt fails once with the plain message', async () => {
    const ok = await submit('generate', { prompt: 'a quiet harbour', count: 2, width: 256, height: 256, seed: 1 });
    const result = jobResultSchema.parse(await ok.waitUntilFinished(client.events, 30_000));
    expect(result.provider).toBe('remote:gpt-image-1');
    expect(result.files).toHaveLength(2);

    const declined = await submit('generate', {
      prompt: 'something [[declined]]',
      count: 1,
      width: 256,
      height: 256,
      seed: 1,
    });
    await expect(declined.waitUntilFinished(client.events, 30_000)).rejects.toThrow();
    const after = (await client.queue.getJob(declined.id!))!;
    expect(after.attemptsMade).toBe(1);
    expect(userFailureMessage(after.failedReason)).toBe('The image service declined this prompt.');

    const upscale = await submit('upscale', { inputKey: 'uploads/x.png', factor: 2, outputFormat: 'png' });
    await expect(upscale.waitUntilFinished(client.events, 30_000)).rejects.toThrow(
      /upscale is not available on this worker: not in WORKER_TOOLS/,
    );
  }, 60_000);
});

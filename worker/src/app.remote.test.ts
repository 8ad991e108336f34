import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Queue, QueueEvents, createNodeRedisClient } from 'bullmq';
import S3rver from 's3rver';
import { QUEUE_NAME, heartbeatKey, jobResultSchema, userFailureMessage, workerHeartbeatSchema } from '@imagestudio/contracts';
import { type RedisClient, connectRedis, createLogger } from '@imagestudio/runtime';
import { type RunningWorker, startWorker } from './app';
import { loadWorkerConfig } from './config';
import { FakeImagesApi } from './generation-api/test-support/fake-images-api';

// A generation-only worker (WORKER_TOOLS=generate) on a hosted images API, through real BullMQ, Redis and S3.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const QUEUE_DB = Number(process.env.TEST_QUEUE_REDIS_DB ?? 15);
const BUCKET = 'worker-remote-test';

describe('API-only generation worker end to end', () => {
  const prefix = `wremote-${randomUUID().slice(0, 8)}`;
  let s3: S3rver;
  let s3Dir: string;
  let api: FakeImagesApi;
  let running: RunningWorker;
  let redis: RedisClient;
  let eventsRedis: RedisClient;
  let queue: Queue;
  let events: QueueEvents;

  beforeAll(async () => {
    s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'worker-remote-s3-'));
    s3 = new S3rver({ address: '127.0.0.1', port: 0, directory: s3Dir, silent: true, configureBuckets: [{ name: BUCKET, configs: [] }] });
    const { port } = (await s3.run()) as { port: number };
    api = await FakeImagesApi.start();
    const config = loadWorkerConfig({
      REDIS_URL,
      QUEUE_REDIS_DB: String(QUEUE_DB),
      QUEUE_PREFIX: prefix,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: BUCKET,
      WORKER_TOOLS: 'generate',
      GENERATION_API_URL: api.baseUrl,
      GENERATION_API_KEY: 'sk-e2e',
      GENERATION_API_CONCURRENCY: '3',
      WORKER_WARMUP_RUNS: '0',
    });
    running = await startWorker(config, createLogger('silent', 'test'));
    redis = await connectRedis(REDIS_URL, { database: QUEUE_DB });
    queue = new Queue(QUEUE_NAME, { connection: createNodeRedisClient(redis), prefix });
    eventsRedis = redis.duplicate();
    await eventsRedis.connect();
    events = new QueueEvents(QUEUE_NAME, { connection: createNodeRedisClient(eventsRedis), prefix });
    await events.waitUntilReady();
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await events?.close();
    await eventsRedis?.quit();
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    await redis?.quit();
    await api?.close();
    await s3?.close();
    fs.rmSync(s3Dir, { recursive: true, force: true });
  });

  const submit = (name: string, data: Record<string, unknown>) => {
    const jobId = randomUUID();
    return queue.add(name, { jobId, userId: randomUUID(), ...data }, { jobId, attempts: 3, backoff: { type: 'fixed', delay: 100 } });
  };

  it('offers only generate, as remote:<model>, with the API concurrency', async () => {
    expect(running.available).toEqual(['generate']);
    const beat = workerHeartbeatSchema.parse(JSON.parse((await redis.get(heartbeatKey(prefix, running.workerId)))!));
    expect(beat).toMatchObject({ tools: ['generate'], provider: 'remote:gpt-image-1', providers: { generate: 'remote:gpt-image-1' }, concurrency: 3 });
  });

  it('runs a generate job through the API, and a declined prompt fails once with the plain message', async () => {
    const ok = await submit('generate', { prompt: 'a quiet harbour', count: 2, width: 256, height: 256, seed: 1 });
    const result = jobResultSchema.parse(await ok.waitUntilFinished(events, 30_000));
    expect(result.provider).toBe('remote:gpt-image-1');
    expect(result.files).toHaveLength(2);

    const declined = await submit('generate', { prompt: 'something [[declined]]', count: 1, width: 256, height: 256, seed: 1 });
    await expect(declined.waitUntilFinished(events, 30_000)).rejects.toThrow();
    const after = (await queue.getJob(declined.id!))!;
    expect(after.attemptsMade).toBe(1);
    expect(userFailureMessage(after.failedReason)).toBe('The image service declined this prompt.');

    const upscale = await submit('upscale', { inputKey: 'uploads/x.png', factor: 2, outputFormat: 'png' });
    await expect(upscale.waitUntilFinished(events, 30_000)).rejects.toThrow(/upscale is not available on this worker: not in WORKER_TOOLS/);
  }, 60_000);
});

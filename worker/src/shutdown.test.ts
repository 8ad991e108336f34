import { TEST_QUEUE_REDIS_DB, TEST_REDIS_URL } from '@imagestudio/runtime/testing';
import { randomUUID } from 'node:crypto';
import { createLogger } from '@imagestudio/runtime';
import { type RunningWorker, startWorker } from './app';
import { loadWorkerConfig } from './config';
import { FakeImagesApi } from './generation-api/test-support/fake-images-api';
import { startLocalS3, type LocalS3 } from './test-support/local-s3';
import { type QueueClient, openQueueClient } from './test-support/queue-client';

// A stopping worker with jobs that outlast its grace hands them back to the queue at once, through real BullMQ,
// Redis and S3; a generation worker on a local fake of the images API, whose [[slow]] prompt answers after 60 s.
const BUCKET = 'worker-shutdown-test';

describe('worker shutdown', () => {
  const prefix = `wstop-${randomUUID().slice(0, 8)}`;
  let s3: LocalS3;
  let api: FakeImagesApi;
  let client: QueueClient;
  const workers: RunningWorker[] = [];

  const start = async () => {
    const config = loadWorkerConfig({
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_REDIS_DB: String(TEST_QUEUE_REDIS_DB),
      QUEUE_PREFIX: prefix,
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: BUCKET,
      WORKER_TOOLS: 'generate',
      GENERATION_API_URL: api.baseUrl,
      GENERATION_API_KEY: 'sk-stop',
      GENERATION_API_CONCURRENCY: '2',
      GENERATION_API_TIMEOUT_S: '300',
      WORKER_WARMUP_RUNS: '0',
    });
    const running = await startWorker(config, createLogger('silent', 'test'));
    workers.push(running);
    return running;
  };

  beforeAll(async () => {
    s3 = await startLocalS3(BUCKET);
    api = await FakeImagesApi.start();
    client = await openQueueClient(TEST_REDIS_URL, TEST_QUEUE_REDIS_DB, prefix);
  }, 60_000);

  afterAll(async () => {
    for (const running of workers) await running.close(0).catch(() => undefined);
    await client?.close();
    await api?.close();
    await s3?.stop();
  });

  const submit = (prompt: string) =>
    client.submit('generate', { userId: randomUUID(), prompt, count: 1, width: 256, height: 256, seed: 1 });

  async function activeOn(jobId: string, workerName: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await client.queue.getJob(jobId);
      if ((await job?.getState()) === 'active' && job?.processedBy === workerName) return;
      if (Date.now() > deadline) throw new Error(`job ${jobId} not active on ${workerName} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('lets a quick job finish within the grace, and hands a slow one back at its end for another worker', async () => {
    const first = await start();
    const slow = await submit('a lighthouse [[slow]]');
    const quick = await submit('a quiet harbour');
    await activeOn(slow.id!, first.workerId, 20_000);

    const stoppedAt = Date.now();
    const { handedBack } = await first.close(1500);
    const stopMs = Date.now() - stoppedAt;
    workers.splice(workers.indexOf(first), 1);

    // The quick job finished on the stopping worker; the slow one went back to the queue, not failed and not
    // left locked for the stalled-job check.
    expect(await (await client.queue.getJob(quick.id!))!.getState()).toBe('completed');
    expect(handedBack).toEqual([slow.id]);
    expect(stopMs).toBeGreaterThanOrEqual(1400);
    expect(stopMs).toBeLessThan(10_000);
    const back = (await client.queue.getJob(slow.id!))!;
    expect(await back.getState()).toBe('waiting');
    expect(back.failedReason ?? '').toBe('');
    expect(back.stalledCounter).toBe(0);

    // Another worker takes it at once, with its attempts untouched (a hand-back is no failure).
    const second = await start();
    await activeOn(slow.id!, second.workerId, 10_000);
    expect((await client.queue.getJob(slow.id!))!.attemptsMade).toBe(0);
  }, 90_000);

  it('closes without waiting when nothing runs', async () => {
    const idle = await start();
    const stoppedAt = Date.now();
    workers.splice(workers.indexOf(idle), 1);
    expect(await idle.close(30_000)).toEqual({ handedBack: [] });
    expect(Date.now() - stoppedAt).toBeLessThan(5000);
  }, 60_000);
});

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import pino from 'pino';
import type { Job } from 'bullmq';
import { HEARTBEAT_TTL_SECONDS, JOB_NAMES, type JobName, heartbeatKey } from '@imagestudio/contracts';
import { startPrivateRedis, type PrivateRedis } from '@imagestudio/runtime/testing';
import { type RunningWorker, startWorker } from './app';
import { loadWorkerConfig } from './config';
import type { JobContext, ToolLoaders } from './handlers/types';
import { startLocalS3, type LocalS3 } from './test-support/local-s3';
import { type QueueClient, openQueueClient } from './test-support/queue-client';

/**
 * The real worker (BullMQ Worker, heartbeat, processor) against a private AOF redis-server that the test stops for
 * 5 s while a job is in `processing`, twice: the worker must come back by itself, run a job submitted after the
 * outage, and end the interrupted one. The tools are stand-ins that take ~4 s, reporting progress every 100 ms.
 */
const BUCKET = 'worker-outage';
const note = (msg: string) => {
  if (process.env.OUTAGE_LOG) fs.appendFileSync(process.env.OUTAGE_LOG, `${new Date().toISOString()} ${msg}\n`);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const slowTool = {
  provider: 'cpu' as const,
  async run(ctx: JobContext<JobName>) {
    for (let i = 1; i <= 40; i += 1) {
      await sleep(100);
      await ctx.progress(i * 2.5, `processing ${i}/40`);
      await ctx.checkCancelled();
    }
    return {
      files: [{ key: `results/${ctx.payload.jobId}/0.png`, width: 1, height: 1, format: 'png' as const, bytes: 1 }],
      provider: 'cpu' as const,
      timings: { total: 4000 },
      notes: [],
    };
  },
};
const loaders = Object.fromEntries(JOB_NAMES.map((n) => [n, async () => slowTool])) as unknown as ToolLoaders;

async function until<T>(fn: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(200);
  }
}

describe('a Redis outage while the worker runs a job', () => {
  const prefix = `wout-${randomUUID().slice(0, 8)}`;
  let redis: PrivateRedis;
  let s3: LocalS3;
  let running: RunningWorker;
  let client: QueueClient;
  const logLines: Array<Record<string, unknown>> = [];
  /** When each heartbeat was written (what the watchdog of main.ts is fed with). */
  const beats: number[] = [];

  beforeAll(async () => {
    redis = await startPrivateRedis();
    s3 = await startLocalS3(BUCKET);
    const config = loadWorkerConfig({
      REDIS_URL: redis.url(0),
      QUEUE_REDIS_DB: '1',
      QUEUE_PREFIX: prefix,
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: BUCKET,
      WORKER_CPU_THREADS: '1',
      WORKER_WARMUP_RUNS: '0',
    });
    const logger = pino(
      { level: 'debug' },
      {
        write: (line: string) => {
          if (process.env.OUTAGE_LOG) fs.appendFileSync(process.env.OUTAGE_LOG, line);
          logLines.push(JSON.parse(line) as Record<string, unknown>);
        },
      },
    );
    running = await startWorker(config, logger, loaders, { onHeartbeat: () => beats.push(Date.now()) });
    client = await openQueueClient(redis.url(0), 1, prefix);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await client?.close();
    await s3?.stop();
    await redis?.dispose();
  }, 30_000);

  async function outageDuringJob(round: number): Promise<void> {
    const interrupted = await client.submit('upscale', {
      userId: randomUUID(),
      inputKey: `in-${round}`,
      factor: 2,
      outputFormat: 'png',
    });
    // One second into `processing`.
    await until(
      async () =>
        ((await client.queue.getJob(interrupted.id!))?.progress as { stage?: string })?.stage?.startsWith(
          'processing',
        ) || undefined,
      20_000,
      'the job to be processing',
    );
    await sleep(1000);
    note(`round ${round}: stopping redis`);
    await redis.stop();
    await sleep(5000);
    const lastBeat = beats.at(-1)!;
    await redis.start();
    const back = Date.now();
    note(`round ${round}: redis back`);
    // The producer's own client reconnects first (the API would answer 503 until then).
    await until(async () => (await client.redis.ping()) === 'PONG' || undefined, 10_000, 'the producer to reconnect');

    const next = await client.submit('upscale', {
      userId: randomUUID(),
      inputKey: `in-${round}`,
      factor: 2,
      outputFormat: 'png',
    });
    const state = async (job: Job) => {
      const s = await client.queue.getJobState(job.id!);
      return s === 'completed' || s === 'failed' ? s : undefined;
    };
    const started = Date.now();
    expect(await until(() => state(next), 60_000, `round ${round}: the job submitted after the outage`)).toBe(
      'completed',
    );
    expect(Date.now() - started).toBeLessThan(60_000);
    await until(() => state(interrupted), 120_000, `round ${round}: the interrupted job to end`);
    // Heartbeats resumed well inside the watchdog's 30 s, and the one Redis kept through the outage was never
    // given a longer life: it advertised this worker for at most HEARTBEAT_TTL_SECONDS after it was written.
    expect(beats.find((t) => t > back)! - back).toBeLessThan(10_000);
    expect(beats.filter((t) => t > lastBeat && t < back)).toEqual([]);
    expect(await client.redis.ttl(heartbeatKey(prefix, running.workerId))).toBeLessThanOrEqual(HEARTBEAT_TTL_SECONDS);
  }

  it('runs a new job within 60 s and ends the interrupted one, twice', async () => {
    await outageDuringJob(1);
    await outageDuringJob(2);
  }, 400_000);
});

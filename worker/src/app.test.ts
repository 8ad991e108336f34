import { TEST_QUEUE_REDIS_DB, TEST_REDIS_URL } from '@imagestudio/runtime/testing';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import sharp from 'sharp';
import {
  DOUBTFUL_CUTOUT_CONFIDENCE,
  type JobName,
  cancelKey,
  heartbeatKey,
  jobResultSchema,
  productPhotoRequestSchema,
  workerHeartbeatSchema,
} from '@imagestudio/contracts';
import { cpuHasInt8Dot } from './inference';
import { type RunningWorker, startWorker } from './app';
import { loadWorkerConfig } from './config';
import { WorkerStorage } from './storage/storage';
import { FIXTURES, MODELS_DIR } from './test-support/models';
import { startLocalS3, type LocalS3 } from './test-support/local-s3';
import { type QueueClient, openQueueClient } from './test-support/queue-client';

// End to end: a real BullMQ job through Redis, an S3 server (s3rver) started here, and the real handlers.
const REDIS_URL = TEST_REDIS_URL;
const QUEUE_DB = TEST_QUEUE_REDIS_DB;
const BUCKET = 'worker-test';

describe('worker end to end (BullMQ + Redis + S3 + real models)', () => {
  const prefix = `wtest-${randomUUID().slice(0, 8)}`;
  const userId = randomUUID();
  let s3: LocalS3;
  let running: RunningWorker;
  let client: QueueClient;
  let storage: WorkerStorage;
  // The worker's log lines, to check what it did at start.
  const logLines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    s3 = await startLocalS3(BUCKET);
    const config = loadWorkerConfig({
      REDIS_URL,
      QUEUE_REDIS_DB: String(QUEUE_DB),
      QUEUE_PREFIX: prefix,
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: BUCKET,
      MODELS_DIR,
      WORKER_CPU_THREADS: '2',
      WORKER_WARMUP_RUNS: '1',
    });
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) },
    );
    running = await startWorker(config, logger);
    client = await openQueueClient(REDIS_URL, QUEUE_DB, prefix);
    storage = await WorkerStorage.open({
      endpoint: config.S3_ENDPOINT,
      region: 'us-east-1',
      bucket: BUCKET,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
    // Start-up loads and warms ISNet and five upscaling model files (~15 s on a quiet 2-core machine).
  }, 240_000);

  afterAll(async () => {
    await running?.close();
    await client?.close();
    storage?.close();
    await s3?.stop();
  });

  function submit(name: JobName, data: Record<string, unknown>) {
    return client.submit(name, { userId, ...data });
  }

  async function upload(buffer: Buffer): Promise<string> {
    const key = `uploads/${userId}/${randomUUID()}.png`;
    await storage.put(key, buffer, 'image/png');
    return key;
  }

  it('publishes a heartbeat with the tools that loaded and the provider', async () => {
    const raw = await client.redis.get(heartbeatKey(prefix, running.workerId));
    const beat = workerHeartbeatSchema.parse(JSON.parse(raw!));
    expect(beat.tools).toEqual(expect.arrayContaining(['remove-background', 'upscale']));
    expect(beat.models).toEqual({ upscale: ['photo', 'illustration', 'fast'] });
    expect(beat.provider).toBe('cpu');
    // WORKER_PRECISION=auto: the int8 ISNet on a CPU with VNNI or AMX (its file is prepared), fp32 elsewhere.
    expect(beat.precisions).toEqual({
      'remove-background': cpuHasInt8Dot() ? 'int8' : 'fp32',
      upscale: 'fp32',
    });
    expect(beat.concurrency).toBe(1);
    expect(await client.redis.ttl(heartbeatKey(prefix, running.workerId))).toBeGreaterThan(0);
  });

  it('warms every background-removal and upscaling model up before it takes jobs', () => {
    const warmed = logLines.filter((l) => l.msg === 'warmed up');
    // Each upscaling model file once (photo's x2 shares its x4 model; photo-max stays off on CPU).
    expect(warmed.map((l) => [l.tool, l.file])).toEqual([
      ['remove-background', undefined],
      ['upscale', 'realesr-general-x4v3'],
      ['upscale', 'realesr-animevideov3-x4'],
      ['upscale', 'realesr-animevideov3-x2'],
      ['upscale', 'esrgan-slim-x4'],
      ['upscale', 'esrgan-slim-x2'],
    ]);
    for (const l of warmed) expect(l.ms).toEqual([expect.any(Number)]);
    // Before the worker announced itself: its heartbeat (and so its jobs) come after the warm-up.
    const started = logLines.findIndex((l) => l.msg === 'worker started');
    expect(started).toBeGreaterThan(logLines.indexOf(warmed.at(-1)!));
  });

  it('removes a background: result in S3 at its deterministic key, progress by stage', async () => {
    const inputKey = await upload(fs.readFileSync(path.join(FIXTURES, 'coffee-300.png')));
    const jobId = randomUUID();
    const stages: string[] = [];
    const onProgress = ({ jobId: id, data }: { jobId: string; data: unknown }) => {
      if (id === jobId) stages.push((data as { stage: string }).stage);
    };
    client.events.on('progress', onProgress);
    const job = await submit('remove-background', { jobId, inputKey, outputFormat: 'png', maskOnly: false });
    const result = jobResultSchema.parse(await job.waitUntilFinished(client.events, 120_000));
    client.events.off('progress', onProgress);
    expect(result.provider).toBe('cpu');
    expect(result.files).toEqual([
      { key: `results/${userId}/${jobId}/0.png`, width: 300, height: 200, format: 'png', bytes: expect.any(Number) },
    ]);
    expect(result.timings.infer).toBeGreaterThan(0);
    const stored = await storage.get(result.files[0]!.key);
    expect(stored.length).toBe(result.files[0]!.bytes);
    const meta = await sharp(stored).metadata();
    expect([meta.width, meta.height, meta.hasAlpha]).toEqual([300, 200, true]);
    expect(stages).toEqual(expect.arrayContaining(['fetching', 'processing', 'encoding', 'saving']));
    // The result carries the cut-out's confidence, from its refined matte: the clean cup is no doubtful cut-out.
    expect(result.cutoutConfidence).toBeGreaterThanOrEqual(DOUBTFUL_CUTOUT_CONFIDENCE);
    expect(result.cutoutConfidence).toBeLessThanOrEqual(1);
  }, 120_000);

  it('lays out a product photo from the payload: background image read from S3, cut-out stored beside the result', async () => {
    const inputKey = await upload(fs.readFileSync(path.join(FIXTURES, 'coffee-300.png')));
    const backgroundKey = await upload(await sharp(path.join(FIXTURES, 'coffee-300.png')).flop().png().toBuffer());
    const jobId = randomUUID();
    const layout = productPhotoRequestSchema.parse({
      crop_to_subject: 'true',
      canvas: '240x240',
      background_image: 'true',
      output_format: 'auto',
    });
    const job = await submit('remove-background', {
      jobId,
      inputKey,
      outputFormat: 'auto',
      maskOnly: false,
      layout,
      backgroundKey,
    });
    const result = jobResultSchema.parse(await job.waitUntilFinished(client.events, 120_000));
    // auto: nothing transparent is left on a background image, so JPEG.
    expect(result.files).toEqual([
      { key: `results/${userId}/${jobId}/0.jpg`, width: 240, height: 240, format: 'jpeg', bytes: expect.any(Number) },
    ]);
    expect(result.subjectBoxes).toEqual([expect.objectContaining({ width: 240 })]);
    expect(result.sources).toEqual({
      foregroundKey: `results/${userId}/${jobId}/sources/foreground.png`,
      matteKey: `results/${userId}/${jobId}/sources/matte.png`,
      width: 300,
      height: 200,
    });
    const fg = await sharp(await storage.get(result.sources!.foregroundKey)).metadata();
    expect([fg.width, fg.height, fg.hasAlpha]).toEqual([300, 200, false]);
    const matte = await sharp(await storage.get(result.sources!.matteKey)).metadata();
    expect([matte.width, matte.height, matte.channels]).toEqual([300, 200, 1]);
  }, 120_000);

  it('counts the jobs it has finished in its heartbeat, for the operator console', async () => {
    // The two jobs above have ended; the next beat (every 5 s) says so, with nothing running now.
    const deadline = Date.now() + 15_000;
    let beat = workerHeartbeatSchema.parse(
      JSON.parse((await client.redis.get(heartbeatKey(prefix, running.workerId)))!),
    );
    while ((beat.jobsDone ?? 0) < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      beat = workerHeartbeatSchema.parse(JSON.parse((await client.redis.get(heartbeatKey(prefix, running.workerId)))!));
    }
    expect(beat.jobsDone).toBeGreaterThanOrEqual(2);
    expect(beat.currentJobs).toEqual([]);
  }, 30_000);

  it('upscales x2 with the chosen model (default photo: Real-ESRGAN general at x4, halved)', async () => {
    const small = await sharp(path.join(FIXTURES, 'coffee-300.png'))
      .extract({ left: 100, top: 60, width: 48, height: 32 })
      .png()
      .toBuffer();
    const job = await submit('upscale', { inputKey: await upload(small), factor: 2, outputFormat: 'webp' });
    const result = jobResultSchema.parse(await job.waitUntilFinished(client.events, 60_000));
    expect(result.files[0]).toMatchObject({ width: 96, height: 64, format: 'webp' });
    expect(result.notes).toContain('model photo (realesr-general-x4v3 at x4, halved with Lanczos3)');
    const fast = await submit('upscale', {
      inputKey: await upload(small),
      factor: 2,
      model: 'fast',
      outputFormat: 'png',
    });
    expect(jobResultSchema.parse(await fast.waitUntilFinished(client.events, 60_000)).notes).toContain(
      'model fast (esrgan-slim-x2)',
    );
    expect((await sharp(await storage.get(result.files[0]!.key)).metadata()).width).toBe(96);
  }, 60_000);

  async function failure(job: Awaited<ReturnType<typeof submit>>): Promise<{ message: string; attempts: number }> {
    await expect(job.waitUntilFinished(client.events, 60_000)).rejects.toThrow();
    const after = (await client.queue.getJob(job.id!))!;
    return { message: after.failedReason, attempts: after.attemptsMade };
  }

  it('fails without retries on a corrupt image, an invalid payload, a missing tool and a cancel flag', async () => {
    const corrupt = await submit('remove-background', {
      inputKey: await upload(Buffer.from('definitely not a png')),
      outputFormat: 'png',
    });
    expect(await failure(corrupt)).toEqual({
      message: expect.stringContaining('could not be read as an image'),
      attempts: 1,
    });

    const invalid = await submit('upscale', { inputKey: 'x', factor: 3, outputFormat: 'png' });
    expect(await failure(invalid)).toEqual({
      message: expect.stringContaining('invalid upscale payload: factor'),
      attempts: 1,
    });

    if (!running.available.includes('generate')) {
      const gen = await submit('generate', { prompt: 'a cat', count: 1, width: 512, height: 512, seed: 1 });
      expect(await failure(gen)).toEqual({
        message: expect.stringContaining('generate is not available on this worker'),
        attempts: 1,
      });
    }

    const jobId = randomUUID();
    await client.redis.set(cancelKey(jobId), '1', { expiration: { type: 'EX', value: 60 } });
    const cancelled = await submit('remove-background', { jobId, inputKey: 'uploads/none.png', outputFormat: 'png' });
    expect(await failure(cancelled)).toEqual({ message: 'cancelled', attempts: 1 });
  }, 60_000);

  it('fails for good, with a user-facing message, when the upload is gone', async () => {
    const missing = await submit('remove-background', { inputKey: `uploads/${userId}/gone.png`, outputFormat: 'png' });
    expect(await failure(missing)).toEqual({ message: 'The uploaded image is no longer available.', attempts: 1 });
  }, 60_000);
});

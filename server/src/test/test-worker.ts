import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import {
  HEARTBEAT_TTL_SECONDS,
  JOB_NAMES,
  QUEUE_NAME,
  cancelKey,
  cutoutConfidence,
  heartbeatKey,
  jobPayloadSchemas,
  DEFAULT_PRODUCT_PHOTO_LAYOUT,
  PRODUCT_PHOTO_MESSAGES,
  type JobName,
  type JobPayloads,
  type JobResult,
} from '@imagestudio/contracts';
import {
  composeSourceKeys,
  connectRedis,
  queueConnection,
  resultKey,
  thumbnailKey,
  type RedisClient,
} from '@imagestudio/runtime';
import { ComposeInputError, composeProductPhoto } from '@imagestudio/runtime/imaging';
import { Storage } from '../lib/storage';
import { checkImageHeader } from '../modules/uploads';

/**
 * A stand-in GPU worker for API tests: a real BullMQ consumer of the real queue that validates the
 * contracts payloads, advertises its tools by heartbeat, reports progress, honours cancel flags and
 * writes real result files to S3 — but whose outcome is chosen by the test:
 *
 * - `succeed`: one PNG per requested image under results/<userId>/<jobId>/ (background removal: the input's
 *   own alpha as the matte, through the real product-photo engine, see writeCutout);
 * - `noop`: returns at once with a result naming a file it does not write (queue benchmarks);
 * - `fail`: throws a retryable error (BullMQ retries up to the job's attempts);
 * - `fail-unrecoverable`: throws UnrecoverableError (no retry);
 * - `hang`: reports progress and waits until cancelled (or killed);
 * - `slow`: like succeed after `slowMs`, checking the cancel flag every 50 ms.
 *
 * A generate prompt containing `[[behaviour]]` overrides the worker's default for that job. Run it in
 * process with startTestWorker, or as a child process (to SIGKILL it) with
 * `tsx server/src/test/test-worker.ts '<TestWorkerOptions as JSON>'`; the child prints "ready".
 */

export const BEHAVIOURS = ['succeed', 'noop', 'fail', 'fail-unrecoverable', 'hang', 'slow'] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

export interface TestWorkerOptions {
  redisUrl: string;
  queueDb: number;
  queuePrefix: string;
  s3: { endpoint: string; bucket: string };
  behaviour?: Behaviour;
  tools?: JobName[];
  /** Models advertised per tool (default: upscale offers what a CPU worker runs: photo, illustration, fast). */
  models?: Partial<Record<JobName, string[]>>;
  concurrency?: number;
  slowMs?: number;
  /** Short lock and stall check, so a killed worker's job is picked up again within seconds. */
  lockDuration?: number;
  stalledInterval?: number;
  heartbeat?: boolean;
  /** In-process only: called when the handler starts and returns (the queue benchmark's clock). */
  onStart?: (jobId: string) => void;
  onEnd?: (jobId: string) => void;
}

export interface TestWorker {
  workerId: string;
  worker: Worker;
  /** Every job this worker started, in order (attempts included). */
  started: string[];
  setBehaviour(b: Behaviour): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function behaviourFor(job: Job, fallback: Behaviour): Behaviour {
  const prompt = typeof job.data?.prompt === 'string' ? job.data.prompt : '';
  const marked = /\[\[([a-z-]+)\]\]/.exec(prompt)?.[1];
  return (BEHAVIOURS as readonly string[]).includes(marked ?? '') ? (marked as Behaviour) : fallback;
}

/**
 * The input's RGBA pixels. sharp's own libvips cannot decode HEVC-coded HEIC (the real worker uses libheif-js):
 * for those a plain grey picture of the size the header names stands in.
 */
async function inputPixels(input: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  try {
    const { data, info } = await sharp(input).autoOrient().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (err) {
    const { width, height } = await checkImageHeader(input).catch(() => Promise.reject(err));
    const grey = { width, height, channels: 4 as const, background: '#808080' };
    return { data: await sharp({ create: grey }).raw().toBuffer(), width, height };
  }
}

/**
 * Background removal without the model: the input's own alpha is the matte (a PNG cut-out keeps its subject, an
 * opaque photo keeps everything), through the real product-photo engine with the payload's layout, and the
 * foreground and matte stored for re-composition where the real worker stores them.
 */
async function writeCutout(storage: Storage, payload: JobPayloads['remove-background']): Promise<JobResult> {
  const { data, width, height } = await inputPixels(await storage.get(payload.inputKey));
  const raw = { raw: { width, height, channels: 4 as const } };
  const [foreground, matte] = await Promise.all([
    sharp(data, raw).removeAlpha().png().toBuffer(),
    sharp(data, raw).extractChannel(3).png().toBuffer(),
  ]);
  const layout = payload.layout ?? DEFAULT_PRODUCT_PHOTO_LAYOUT;
  const backgroundImage = payload.backgroundKey ? await storage.get(payload.backgroundKey) : undefined;
  const provenance = {
    source: 'compositeWithTrainedAlgorithmicMedia',
    tool: 'Image Studio background removal',
  } as const;
  const picture = await composeProductPhoto({
    foreground,
    matte,
    backgroundImage,
    layout,
    opaque: true,
    provenance,
  }).catch((err: unknown) => {
    // Worded like the worker's failure: the contract's message where it has one.
    if (!(err instanceof ComposeInputError)) throw err;
    const messages: Partial<Record<string, string>> = PRODUCT_PHOTO_MESSAGES;
    throw new UnrecoverableError(messages[err.code] ?? err.message);
  });
  const owner = { userId: payload.userId, jobId: payload.jobId };
  const key = resultKey(owner, 0, picture.format === 'jpeg' ? 'jpg' : picture.format);
  const sources = { ...composeSourceKeys(owner), width, height };
  await Promise.all([
    storage.put(key, picture.data, picture.contentType),
    storage.put(sources.foregroundKey, foreground, 'image/png'),
    storage.put(sources.matteKey, matte, 'image/png'),
  ]);
  const file = { key, width: picture.width, height: picture.height, format: picture.format };
  // Scored like the real worker's cut-outs, on the matte (the input's alpha), so a test picks the score by its input.
  const alpha = new Uint8Array(width * height);
  for (let i = 0; i < alpha.length; i++) alpha[i] = data[i * 4 + 3]!;
  return {
    files: [{ ...file, bytes: picture.data.length }],
    subjectBoxes: [picture.subjectBox],
    cutoutConfidence: cutoutConfidence(alpha, width, height)?.confidence ?? null,
    provider: 'cpu',
    timings: { total: 1 },
    notes: ['test worker'],
    sources,
  };
}

async function writeResults(storage: Storage, job: Job, name: JobName, noop: boolean): Promise<JobResult> {
  const data = jobPayloadSchemas[name].parse(job.data);
  if (name === 'remove-background' && !noop) return writeCutout(storage, data as JobPayloads['remove-background']);
  const count = name === 'generate' ? (data as { count: number }).count : 1;
  const files: JobResult['files'] = [];
  const thumbnailKeys: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const key = `results/${data.userId}/${data.jobId}/${i}.png`;
    const png = noop
      ? Buffer.alloc(0)
      : await sharp({ create: { width: 32, height: 24, channels: 4, background: '#2a7' } })
          .png()
          .toBuffer();
    // Like the real worker, a small WebP preview beside each result (lists show that).
    const thumbKey = thumbnailKey(data, i);
    if (!noop) {
      await storage.put(key, png, 'image/png');
      await storage.put(thumbKey, await sharp(png).webp().toBuffer(), 'image/webp');
    }
    files.push({ key, width: 32, height: 24, format: 'png', bytes: png.length });
    thumbnailKeys.push(thumbKey);
  }
  return { files, thumbnailKeys, provider: 'cpu', timings: { total: 1 }, notes: ['test worker'] };
}

/** Starts a test worker on the queue of `options.queuePrefix`. */
export async function startTestWorker(options: TestWorkerOptions): Promise<TestWorker> {
  const workerId = `test-worker-${randomUUID().slice(0, 8)}`;
  const redis: RedisClient = await connectRedis(options.redisUrl, { database: options.queueDb, name: workerId });
  const storage = await Storage.open({
    endpoint: options.s3.endpoint,
    bucket: options.s3.bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    localDir: '',
    localPort: 0,
  });
  let fallback: Behaviour = options.behaviour ?? 'succeed';
  const started: string[] = [];
  const cancelled = async (jobId: string) => (await redis.exists(cancelKey(jobId))) > 0;

  const connection = redis.duplicate();
  const worker = new Worker(
    QUEUE_NAME,
    async (job: Job) => {
      const name = job.name as JobName;
      if (!JOB_NAMES.includes(name)) throw new UnrecoverableError(`unknown job ${job.name}`);
      const parsed = jobPayloadSchemas[name].safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError('invalid payload');
      started.push(parsed.data.jobId);
      options.onStart?.(parsed.data.jobId);
      const behaviour = behaviourFor(job, fallback);
      if (behaviour === 'noop') {
        const result = await writeResults(storage, job, name, true);
        options.onEnd?.(parsed.data.jobId);
        return result;
      }
      if (await cancelled(parsed.data.jobId)) throw new UnrecoverableError('cancelled');
      await job.updateProgress({ percent: 10, stage: 'prepare' });
      if (behaviour === 'fail') throw new Error('test worker failure');
      if (behaviour === 'fail-unrecoverable') throw new UnrecoverableError('test worker refused the input');
      if (behaviour === 'hang' || behaviour === 'slow') {
        const until = behaviour === 'slow' ? Date.now() + (options.slowMs ?? 1000) : Infinity;
        await job.updateProgress({ percent: 50, stage: 'infer' });
        while (Date.now() < until) {
          if (await cancelled(parsed.data.jobId)) throw new UnrecoverableError('cancelled');
          await sleep(50);
        }
      }
      await job.updateProgress({ percent: 90, stage: 'upload' });
      return writeResults(storage, job, name, false);
    },
    {
      connection: queueConnection(connection),
      prefix: options.queuePrefix,
      concurrency: options.concurrency ?? 4,
      // Short by default: BullMQ's stall check runs for the whole queue at the shortest interval any
      // worker set last, so a test that kills a worker needs every worker on the queue to check often.
      lockDuration: options.lockDuration ?? 2000,
      stalledInterval: options.stalledInterval ?? 1000,
    },
  );
  worker.on('error', () => undefined);

  const beat = async () => {
    const value = {
      workerId,
      tools: options.tools ?? [...JOB_NAMES],
      models: options.models ?? { upscale: ['photo', 'illustration', 'fast'] },
      provider: 'cpu',
      concurrency: options.concurrency ?? 4,
      version: 'test',
      at: new Date().toISOString(),
    };
    await redis.set(heartbeatKey(options.queuePrefix, workerId), JSON.stringify(value), {
      expiration: { type: 'EX', value: HEARTBEAT_TTL_SECONDS },
    });
  };
  let timer: NodeJS.Timeout | undefined;
  if (options.heartbeat !== false) {
    await beat();
    timer = setInterval(() => void beat().catch(() => undefined), (HEARTBEAT_TTL_SECONDS * 1000) / 3);
  }
  await worker.waitUntilReady();

  return {
    workerId,
    worker,
    started,
    setBehaviour: (b) => {
      fallback = b;
    },
    async close() {
      clearInterval(timer);
      await worker.close(true).catch(() => undefined);
      await redis.del(heartbeatKey(options.queuePrefix, workerId)).catch(() => undefined);
      await redis.quit().catch(() => undefined);
      if (connection.isOpen) await connection.quit().catch(() => connection.destroy());
      await storage.close();
    },
  };
}

/** Child-process entry: options as JSON in argv[2]; prints "ready" once consuming. */
if (require.main === module) {
  startTestWorker(JSON.parse(process.argv[2] ?? '{}') as TestWorkerOptions).then(
    () => process.stdout.write('ready\n'),
    (err: Error) => {
      process.stderr.write(`test worker failed: ${err.message}\n`);
      process.exit(1);
    },
  );
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'bullmq';
import { JOB_NAMES, type JobName, type JobResult, QUEUE_NAME, type ToolProvider } from '@imagestudio/contracts';
import type { WorkerConfig } from './config';
import { TOOL_LOADERS, loadTools } from './handlers';
import { type LoadedTools, type Tool, type ToolLoaders, isUnavailable } from './handlers/types';
import { InferenceRuntime, type Precision } from './inference';
import { ContentCredentials } from './content-credentials';
import {
  type Logger,
  type RedisClient,
  connectRedis,
  projectRoot,
  queueConnection,
  throttledErrorLog,
} from '@imagestudio/runtime';
import { startHeartbeat } from './queue/heartbeat';
import { Limiter } from './queue/limiter';
import { ActiveJobs } from './queue/hand-back';
import { createProcessor } from './queue/processor';
import { WorkerStorage } from './storage/storage';

export interface RunningWorker {
  /** Takes any job of the queue: the processor checks each name and payload (queue/processor.ts). */
  worker: Worker<unknown, JobResult, string>;
  tools: LoadedTools;
  /** Tools that loaded, and the provider the first of them runs on. */
  available: JobName[];
  provider: ToolProvider;
  /** Jobs taken at once: WORKER_CONCURRENCY for local models plus GENERATION_API_CONCURRENCY for a hosted API. */
  concurrency: number;
  workerId: string;
  /**
   * Ordered shutdown: stop taking jobs and let the active ones finish, then heartbeat, models, S3, Redis. With
   * `graceMs`, jobs still running after it are handed back to the queue for another worker (their ids returned).
   */
  close(graceMs?: number): Promise<{ handedBack: string[] }>;
}

const VERSION = (
  JSON.parse(fs.readFileSync(path.join(projectRoot(), 'worker', 'package.json'), 'utf8')) as { version: string }
).version;

/** The claim generator of the results' Content Credentials. */
const GENERATOR = { name: 'imagestudio-worker', version: VERSION };

export interface StartOptions {
  /** Called after each heartbeat written to Redis (main.ts feeds the liveness watchdog with it). */
  onHeartbeat?: () => void;
}

/** Connects Redis and S3, loads every tool's models once, starts the BullMQ Worker and the heartbeat. */
export async function startWorker(
  config: WorkerConfig,
  logger: Logger,
  loaders: ToolLoaders = TOOL_LOADERS,
  options: StartOptions = {},
): Promise<RunningWorker> {
  const cleanup: (() => Promise<unknown> | unknown)[] = [];
  const undo = async () => {
    for (const fn of cleanup.reverse()) await Promise.resolve(fn()).catch(() => undefined);
  };
  try {
    const redis: RedisClient = await connectRedis(config.REDIS_URL, {
      database: config.QUEUE_REDIS_DB,
      name: 'worker',
    });
    cleanup.push(() => redis.quit());
    const storage = await WorkerStorage.open({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
    cleanup.push(() => storage.close());
    const runtime = await InferenceRuntime.start({
      providers: config.WORKER_EXECUTION_PROVIDERS,
      requireGpu: config.WORKER_REQUIRE_GPU,
      cpuThreads: config.WORKER_CPU_THREADS,
      logger: logger.child({ module: 'inference' }),
    });
    cleanup.push(() => runtime.close());
    // Before the tools: a wrong certificate or key stops the worker here, not every AI job later.
    const credentials = await ContentCredentials.start(config, logger, GENERATOR);
    cleanup.push(() => credentials.close());
    const tools = await loadTools(loaders, { config, runtime, logger });
    const available = JOB_NAMES.filter((n) => !isUnavailable(tools[n]));
    const providers = Object.fromEntries(available.map((n) => [n, (tools[n] as Tool<JobName>).provider])) as Partial<
      Record<JobName, ToolProvider>
    >;
    const provider: ToolProvider = available[0] ? providers[available[0]]! : 'cpu';
    const precisions = Object.fromEntries(
      available.flatMap((n) => {
        const precision = (tools[n] as Tool<JobName>).precision;
        return precision ? [[n, precision]] : [];
      }),
    ) as Partial<Record<JobName, Precision>>;
    const { limited, concurrency } = limitConcurrency(tools, config);

    const workerId = `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
    const activeJobs = new ActiveJobs();
    // Typed Worker<unknown, JobResult, string> by the processor it is given.
    const processor = activeJobs.track(createProcessor({ tools: limited, storage, redis, logger, credentials }));
    const worker = new Worker(QUEUE_NAME, processor, {
      // Stored on every job it takes (BullMQ's processedBy): the console's job page names the worker that ran it.
      name: workerId,
      connection: queueConnection(redis),
      prefix: config.QUEUE_PREFIX,
      concurrency,
      // While Redis is away, try to fetch the next job every 2 s (BullMQ's default waits 15 s).
      runRetryDelay: 2000,
    });
    worker.on(
      'error',
      throttledErrorLog((err, skipped) => logger.error({ err: err.message, skipped }, 'queue worker error')),
    );
    worker.on('failed', (job, err) => logger.debug({ jobId: job?.id, err: err.message }, 'job failed'));
    // What the operator console shows per worker: the jobs it runs now and how many it has finished.
    const running = new Set<string>();
    let jobsDone = 0;
    worker.on('active', (job) => void running.add(String(job.id)));
    const finished = (job: { id?: string } | undefined) => {
      if (job?.id && running.delete(String(job.id))) jobsDone += 1;
    };
    worker.on('completed', finished);
    worker.on('failed', finished);
    const models: Partial<Record<JobName, string[]>> = {};
    for (const name of available) {
      const offered = (tools[name] as { models?: readonly string[] }).models;
      if (offered) models[name] = [...offered];
    }
    const stopHeartbeat = startHeartbeat(
      redis,
      config.QUEUE_PREFIX,
      { workerId, tools: available, models, provider, providers, precisions, concurrency, version: VERSION },
      logger,
      options.onHeartbeat,
      () => worker.isRunning(),
      () => ({ currentJobs: [...running], jobsDone }),
    );
    logger.info(
      { workerId, tools: available, models, providers, precisions, concurrency, queue: QUEUE_NAME },
      'worker started',
    );

    return {
      worker,
      tools,
      available,
      provider,
      concurrency,
      workerId,
      close: async (graceMs) => {
        const handedBack = await activeJobs.closeWorker(worker, graceMs, logger);
        for (const id of handedBack) running.delete(id);
        await stopHeartbeat();
        for (const name of JOB_NAMES) {
          const tool = tools[name];
          if (!isUnavailable(tool)) await tool.close?.().catch(() => undefined);
        }
        await undo();
        return { handedBack };
      },
    };
  } catch (err) {
    await undo();
    throw err;
  }
}

/**
 * Each available tool's run() behind its slot pool: a hosted API's (GENERATION_API_CONCURRENCY) or the local
 * models' (WORKER_CONCURRENCY). BullMQ takes as many jobs at once as both pools of the tools offered hold.
 */
function limitConcurrency(tools: LoadedTools, config: WorkerConfig): { limited: LoadedTools; concurrency: number } {
  const pools = {
    local: new Limiter(config.WORKER_CONCURRENCY),
    remote: new Limiter(config.GENERATION_API_CONCURRENCY),
  };
  const used = new Set<Limiter>();
  const limited = { ...tools } as Record<JobName, LoadedTools[JobName]>;
  for (const name of JOB_NAMES) {
    const tool = tools[name];
    if (isUnavailable(tool)) continue;
    const pool = tool.provider.startsWith('remote:') ? pools.remote : pools.local;
    used.add(pool);
    const run = tool.run.bind(tool) as Tool<JobName>['run'];
    limited[name] = {
      ...tool,
      run: (ctx: Parameters<typeof run>[0]) =>
        pool.run(
          () => run(ctx),
          () => ctx.checkCancelled(),
        ),
    } as LoadedTools[JobName];
  }
  const concurrency = [...used].reduce((sum, pool) => sum + pool.size, 0) || config.WORKER_CONCURRENCY;
  return { limited: limited as LoadedTools, concurrency };
}

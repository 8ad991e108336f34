import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'bullmq';
import { type ExecutionProvider, JOB_NAMES, type JobName, QUEUE_NAME } from '@imagestudio/contracts';
import type { WorkerConfig } from './config';
import { TOOL_LOADERS, loadTools } from './handlers';
import { type LoadedTools, type ToolLoaders, isUnavailable } from './handlers/types';
import { InferenceRuntime } from './inference';
import { type Logger, type RedisClient, connectRedis, projectRoot, queueConnection, throttledErrorLog } from '@imagestudio/runtime';
import { startHeartbeat } from './queue/heartbeat';
import { createProcessor } from './queue/processor';
import { WorkerStorage } from './storage/storage';

export interface RunningWorker {
  worker: Worker;
  tools: LoadedTools;
  /** Tools that loaded, and the provider the first of them runs on. */
  available: JobName[];
  provider: ExecutionProvider;
  workerId: string;
  /** Ordered shutdown: stop taking jobs and finish active ones, then heartbeat, models, S3, Redis. */
  close(): Promise<void>;
}

const VERSION = (JSON.parse(fs.readFileSync(path.join(projectRoot(), 'worker', 'package.json'), 'utf8')) as { version: string }).version;

/** Connects Redis and S3, loads every tool's models once, starts the BullMQ Worker and the heartbeat. */
export async function startWorker(config: WorkerConfig, logger: Logger, loaders: ToolLoaders = TOOL_LOADERS): Promise<RunningWorker> {
  const cleanup: (() => Promise<unknown> | unknown)[] = [];
  const undo = async () => {
    for (const fn of cleanup.reverse()) await Promise.resolve(fn()).catch(() => undefined);
  };
  try {
    const redis: RedisClient = await connectRedis(config.REDIS_URL, { database: config.QUEUE_REDIS_DB, name: 'worker' });
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
    const tools = await loadTools(loaders, { config, runtime, logger });
    const available = JOB_NAMES.filter((n) => !isUnavailable(tools[n]));
    const first = available[0];
    const provider: ExecutionProvider = first ? (tools[first] as { provider: ExecutionProvider }).provider : 'cpu';

    const worker = new Worker(QUEUE_NAME, createProcessor({ tools, storage, redis, logger }), {
      connection: queueConnection(redis),
      prefix: config.QUEUE_PREFIX,
      concurrency: config.WORKER_CONCURRENCY,
    });
    worker.on('error', throttledErrorLog((err, skipped) => logger.error({ err: err.message, skipped }, 'queue worker error')));
    worker.on('failed', (job, err) => logger.debug({ jobId: job?.id, err: err.message }, 'job failed'));
    const workerId = `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
    const stopHeartbeat = startHeartbeat(redis, config.QUEUE_PREFIX, { workerId, tools: available, provider, concurrency: config.WORKER_CONCURRENCY, version: VERSION }, logger);
    logger.info({ workerId, tools: available, provider, concurrency: config.WORKER_CONCURRENCY, queue: QUEUE_NAME }, 'worker started');

    return {
      worker,
      tools,
      available,
      provider,
      workerId,
      close: async () => {
        await worker.close();
        await stopHeartbeat();
        for (const name of JOB_NAMES) {
          const tool = tools[name];
          if (!isUnavailable(tool)) await tool.close?.().catch(() => undefined);
        }
        await undo();
      },
    };
  } catch (err) {
    await undo();
    throw err;
  }
}

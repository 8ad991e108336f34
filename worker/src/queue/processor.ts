import { type Job, UnrecoverableError } from 'bullmq';
import {
  JOB_NAMES,
  type JobName,
  type JobResult,
  cancelKey,
  jobPayloadSchema,
  jobResultSchema,
} from '@imagestudio/contracts';
import type { Logger } from '@imagestudio/runtime';
import type { RedisClient } from '@imagestudio/runtime';
import type { WorkerStorage } from '../storage/storage';
import type { ContentCredentials } from '../content-credentials';
import { type JobContext, type LoadedTools, isUnavailable } from '../handlers/types';
import { JobCancelledError } from './errors';

export interface ProcessorDeps {
  tools: LoadedTools;
  storage: WorkerStorage;
  /** The queue's Redis (db QUEUE_REDIS_DB), where the API sets cancel flags. */
  redis: RedisClient;
  logger: Logger;
  /** Signs the results of tools that declare Content Credentials; absent: nothing is signed (tests). */
  credentials?: ContentCredentials;
}

function isJobName(name: string): name is JobName {
  return (JOB_NAMES as readonly string[]).includes(name);
}

/**
 * Builds the BullMQ processor: job name -> tool, payload re-validated with the contracts schema, progress and
 * cancellation wired, result checked against jobResultSchema. Input problems and unavailable tools are
 * UnrecoverableErrors (no retry); anything else is retried by BullMQ's attempts. A job's data and name arrive
 * from Redis unchecked (`unknown`, `string`): they become `JobPayloads[N]` and a job name only here.
 */
export function createProcessor(deps: ProcessorDeps): (job: Job<unknown, JobResult, string>) => Promise<JobResult> {
  return async (job) => {
    const name = job.name;
    if (!isJobName(name)) throw new UnrecoverableError(`unknown job name "${name}"`);
    return runJob(deps, job, name);
  };
}

/** Runs job `name` with its tool, both typed by the name: the tool of N gets N's payload. */
async function runJob<N extends JobName>(
  deps: ProcessorDeps,
  job: Job<unknown, JobResult, string>,
  name: N,
): Promise<JobResult> {
  const tool = deps.tools[name];
  if (isUnavailable(tool)) throw new UnrecoverableError(`${name} is not available on this worker: ${tool.unavailable}`);
  const parsed = jobPayloadSchema(name).safeParse(job.data);
  if (!parsed.success) {
    throw new UnrecoverableError(
      `invalid ${name} payload: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const payload = parsed.data;
  const logger = deps.logger.child({
    jobId: job.id,
    job: name,
    requestId: payload.requestId,
    attempt: job.attemptsMade + 1,
  });
  const ctx: JobContext<N> = {
    payload,
    storage: deps.storage,
    logger,
    progress: (percent, stage) =>
      job.updateProgress({ percent: Math.round(Math.min(100, Math.max(0, percent))), stage }),
    checkCancelled: async () => {
      if (await deps.redis.exists(cancelKey(payload.jobId))) throw new JobCancelledError();
    },
    signing: deps.credentials?.forTool(name),
  };
  const started = performance.now();
  try {
    await ctx.checkCancelled();
    const result = await tool.run(ctx);
    const checked = jobResultSchema.parse(result);
    logger.info(
      { ms: Math.round(performance.now() - started), provider: checked.provider, timings: checked.timings },
      'job done',
    );
    return checked;
  } catch (err) {
    if (err instanceof JobCancelledError) {
      logger.info('job cancelled');
      throw new UnrecoverableError('cancelled');
    }
    logger.warn({ err: (err as Error).message, unrecoverable: err instanceof UnrecoverableError }, 'job failed');
    throw err;
  }
}

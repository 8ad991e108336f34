import { z } from 'zod';

/**
 * The queue contract between the API (producer) and the GPU workers (consumers), summed up in
 * docs/architecture.md#queue-contract-api---worker.
 * Payloads carry ids, S3 keys and parameters only: never image bytes, never secrets.
 */

/** The one BullMQ queue every tool job goes through. */
export const QUEUE_NAME = 'images';

/** One BullMQ job name per tool. */
export const JOB_NAMES = ['generate', 'remove-background', 'upscale'] as const;
export type JobName = (typeof JOB_NAMES)[number];

const hexColor = /^#[0-9a-fA-F]{6}$/;

const jobBase = {
  /** Same id as the `image_jobs` row and the BullMQ job id. */
  jobId: z.string().uuid(),
  userId: z.string().uuid(),
  /** The HTTP request that accepted the job, so worker logs can be joined to API logs. */
  requestId: z.string().max(100).optional(),
};

export const removeBackgroundPayloadSchema = z.object({
  ...jobBase,
  inputKey: z.string().min(1),
  outputFormat: z.enum(['png', 'webp']),
  backgroundColor: z.string().regex(hexColor).optional(),
  maskOnly: z.boolean().default(false),
});

export const upscalePayloadSchema = z.object({
  ...jobBase,
  inputKey: z.string().min(1),
  factor: z.union([z.literal(2), z.literal(4)]),
  outputFormat: z.enum(['png', 'webp', 'jpeg']),
});

export const generatePayloadSchema = z.object({
  ...jobBase,
  prompt: z.string().min(1).max(1000),
  negativePrompt: z.string().max(1000).optional(),
  style: z.string().max(50).optional(),
  count: z.number().int().min(1).max(4),
  width: z.number().int().min(64).max(2048),
  height: z.number().int().min(64).max(2048),
  /** Seed of the first image; image n uses seed + n. Chosen by the API when the user gave none. */
  seed: z.number().int().min(0).max(2 ** 32 - 1),
});

/** Job name -> payload schema; the worker re-validates every payload with it. */
export const jobPayloadSchemas = {
  generate: generatePayloadSchema,
  'remove-background': removeBackgroundPayloadSchema,
  upscale: upscalePayloadSchema,
} as const satisfies Record<JobName, z.ZodType>;

export type RemoveBackgroundPayload = z.infer<typeof removeBackgroundPayloadSchema>;
export type UpscalePayload = z.infer<typeof upscalePayloadSchema>;
export type GeneratePayload = z.infer<typeof generatePayloadSchema>;
export type JobPayloads = {
  generate: GeneratePayload;
  'remove-background': RemoveBackgroundPayload;
  upscale: UpscalePayload;
};

export const executionProviderSchema = z.enum(['cuda', 'webgpu', 'cpu']);
export type ExecutionProvider = z.infer<typeof executionProviderSchema>;

/** One stored output image. `key` is an S3 key under `results/<userId>/<jobId>/`. */
export const jobResultFileSchema = z.object({
  key: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  format: z.enum(['png', 'webp', 'jpeg']),
  bytes: z.number().int(),
  seed: z.number().int().optional(),
});

/** The worker's return value for a completed job. */
export const jobResultSchema = z.object({
  files: z.array(jobResultFileSchema).min(1),
  provider: executionProviderSchema,
  /** Milliseconds per stage (download, prepare, infer, encode, upload, ...). */
  timings: z.record(z.string(), z.number()),
  /** Free-form facts worth showing, e.g. "generated at 512x512 and resized". */
  notes: z.array(z.string()).default([]),
});
export type JobResultFile = z.infer<typeof jobResultFileSchema>;
export type JobResult = z.infer<typeof jobResultSchema>;

/** What the worker reports through `job.updateProgress`. */
export const jobProgressSchema = z.object({
  percent: z.number().min(0).max(100),
  stage: z.string(),
});
export type JobProgress = z.infer<typeof jobProgressSchema>;

/**
 * Redis key the API sets to ask workers to stop a running job at its next step. It lives in the QUEUE's
 * Redis (db QUEUE_REDIS_DB), the one connection a worker has.
 */
export function cancelKey(jobId: string): string {
  return `${QUEUE_NAME}:cancel:${jobId}`;
}

/**
 * Redis key prefix of worker heartbeats, kept in the QUEUE's Redis. Each worker writes
 * `heartbeatKey(QUEUE_PREFIX, workerId)` (jobs.ts) with a short TTL; with the default prefix "bull" the API
 * also reads the bare `<HEARTBEAT_KEY_PREFIX><workerId>` form.
 */
export const HEARTBEAT_KEY_PREFIX = `${QUEUE_NAME}:workers:`;
/** Seconds a heartbeat stays valid; workers refresh it at a third of this. */
export const HEARTBEAT_TTL_SECONDS = 15;

export const workerHeartbeatSchema = z.object({
  workerId: z.string(),
  tools: z.array(z.enum(JOB_NAMES)),
  provider: executionProviderSchema,
  concurrency: z.number().int().min(1),
  version: z.string(),
  at: z.string(),
});
export type WorkerHeartbeat = z.infer<typeof workerHeartbeatSchema>;

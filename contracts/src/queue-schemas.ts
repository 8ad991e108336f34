import { z } from 'zod';
import { DEFAULT_UPSCALE_MODEL, JOB_NAMES, UPSCALE_MODELS, type JobName } from './queue';

/** The zod schemas of the queue contract (queue.ts has its names and keys): payloads, results, progress, heartbeats. */

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
  // Jobs queued before models existed ran the default.
  model: z.enum(UPSCALE_MODELS).default(DEFAULT_UPSCALE_MODEL),
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
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1),
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

/**
 * What runs a tool: a local onnxruntime execution provider, or `remote:<model>` when a worker hands the job to
 * a hosted images API (e.g. `remote:gpt-image-1`).
 */
export const toolProviderSchema = z.union([
  executionProviderSchema,
  z.templateLiteral(['remote:', z.string().min(1).max(100)]),
]);
export type ToolProvider = z.infer<typeof toolProviderSchema>;

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
  provider: toolProviderSchema,
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

export const workerHeartbeatSchema = z.object({
  workerId: z.string(),
  tools: z.array(z.enum(JOB_NAMES)),
  /** Per tool, the user-selectable models this worker can run (upscale: UPSCALE_MODELS); absent = none to choose. */
  models: z.partialRecord(z.enum(JOB_NAMES), z.array(z.string())).default({}),
  /** The provider of the worker's first available tool (what older readers show). */
  provider: toolProviderSchema,
  /** Per available tool, what runs it: tools of one worker may differ (local models, a hosted images API). */
  providers: z.partialRecord(z.enum(JOB_NAMES), toolProviderSchema).optional(),
  /** Per local tool, what its main model computes in (the worker's WORKER_PRECISION choice). */
  precisions: z.partialRecord(z.enum(JOB_NAMES), z.enum(['fp32', 'fp16', 'int8'])).optional(),
  concurrency: z.number().int().min(1),
  version: z.string(),
  at: z.string(),
});
export type WorkerHeartbeat = z.infer<typeof workerHeartbeatSchema>;

import { z } from 'zod';
import { JOB_NAMES } from './tools';

/**
 * The zod schemas of the queue contract (queue.ts has its names and keys): results, progress, heartbeats. Each
 * tool's payload schema is in its definition (tools/tool-schemas.ts builds them).
 */

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

/** The subject's box in an image's pixels (background removal's results). */
export const subjectBoxSchema = z.object({
  left: z.number().int(),
  top: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
});

/** One stored output image. `key` is an S3 key under `results/<userId>/<jobId>/`. */
export const jobResultFileSchema = z.object({
  key: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  format: z.enum(['png', 'webp', 'avif', 'jpeg']),
  bytes: z.number().int(),
  seed: z.number().int().optional(),
});

/**
 * What re-composing a background removal needs, stored with its results (under the same prefix, so retention
 * and deletion take it too): the decontaminated foreground (opaque PNG, every pixel's colour) and the matte
 * (greyscale PNG), both at the input's full size.
 */
export const composeSourcesSchema = z.object({
  foregroundKey: z.string(),
  matteKey: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type ComposeSources = z.infer<typeof composeSourcesSchema>;

/** The worker's return value for a completed job. */
export const jobResultSchema = z.object({
  files: z.array(jobResultFileSchema).min(1),
  provider: toolProviderSchema,
  /** Milliseconds per stage (download, prepare, infer, encode, upload, ...). */
  timings: z.record(z.string(), z.number()),
  /** Free-form facts worth showing, e.g. "generated at 512x512 and resized". */
  notes: z.array(z.string()).default([]),
  /**
   * Background removal: per file (same order), where the subject is in it (null: no subject found); beside the
   * files rather than in them, so a file's description stays the same for every tool.
   */
  subjectBoxes: z.array(subjectBoxSchema.nullable()).optional(),
  /**
   * Per file (same order), the key of its small WebP preview (long side at most 256 px) for lists; absent on
   * results written before previews. Beside the files, like subjectBoxes, so a file's description stays the same.
   */
  thumbnailKeys: z.array(z.string()).optional(),
  /** Background removal: the stored foreground and matte that `POST /api/jobs/{id}/compose` renders from. */
  sources: composeSourcesSchema.optional(),
  /**
   * Background removal: how far the cut-out can be trusted (0-1, two decimals; cutout-confidence.ts), null when
   * the matte holds no subject; absent from results of other tools and of workers from before it.
   */
  cutoutConfidence: z.number().min(0).max(1).nullable().optional(),
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
  /** The ids of the jobs it runs now (absent from older workers). */
  currentJobs: z.array(z.string()).optional(),
  /** Jobs it has finished (succeeded or failed) since it started (absent from older workers). */
  jobsDone: z.number().int().min(0).optional(),
  at: z.string(),
});
export type WorkerHeartbeat = z.infer<typeof workerHeartbeatSchema>;

import { UnrecoverableError } from 'bullmq';
import { ImageInputError } from '../imaging/decode';
import { CONTENT_TYPES, type OutputFormat } from '../imaging/encode';
import type { JobContext } from './types';
import type { ResultProvenance } from '../content-credentials';
import type {
  ComposeSources,
  JobName,
  JobResult,
  JobResultFile,
  JobStage,
  SubjectBox,
  ToolProvider,
} from '@imagestudio/contracts';
import { composeSourceKeys, resultKey, thumbnailKey } from '@imagestudio/runtime';
import { makeThumbnail } from '@imagestudio/runtime/imaging';

/** Shared job plumbing of the image tools: S3 in/out, progress stages (contracts JOB_STAGES), input errors -> UnrecoverableError. */

/** Downloads the job's input; a missing object is the API's bug or a deleted upload, not worth retrying. */
export async function downloadInput(ctx: JobContext<JobName>, key: string): Promise<Buffer> {
  try {
    return await ctx.storage.get(key);
  } catch (err) {
    if ((err as Error).name === 'NoSuchKey') throw new UnrecoverableError('The uploaded image is no longer available.');
    throw err;
  }
}

/**
 * Stores one result at its deterministic key, with its small WebP preview beside it at thumbnailKey() (lists show
 * that, never the full-size file; the job result names it in `thumbnailKeys`, see previewKeys), and describes it.
 * The one place results are written: a tool whose contract declares `contentCredentials` gets each result signed
 * here (ctx.signing), naming `provenance`'s model and, for an edit, its input as the parent ingredient.
 */
export async function uploadResult(
  ctx: JobContext<JobName>,
  index: number,
  image: { data: Buffer; width: number; height: number },
  format: OutputFormat,
  provenance: ResultProvenance = {},
): Promise<JobResultFile> {
  const key = resultKey(ctx.payload, index, format === 'jpeg' ? 'jpg' : format);
  const thumbKey = thumbnailKey(ctx.payload, index);
  const stored = ctx.signing
    ? ctx.signing.sign(image.data, format, provenance, ctx.logger)
    : Promise.resolve(image.data);
  await Promise.all([
    stored.then((data) => ctx.storage.put(key, data, CONTENT_TYPES[format])),
    makeThumbnail(image.data).then((thumb) => ctx.storage.put(thumbKey, thumb, CONTENT_TYPES.webp)),
  ]);
  return { key, width: image.width, height: image.height, format, bytes: (await stored).length };
}

/** The previews uploadResult wrote for `files`, for the job result's `thumbnailKeys`. */
export function previewKeys(ctx: JobContext<JobName>, files: readonly unknown[]): string[] {
  return files.map((_, index) => thumbnailKey(ctx.payload, index));
}

/** Stores a background removal's full-size cut-out beside its results (same prefix: same retention and deletion). */
async function uploadSources(
  ctx: JobContext<JobName>,
  sources: { foreground: Buffer; matte: Buffer; width: number; height: number },
): Promise<ComposeSources> {
  const keys = composeSourceKeys(ctx.payload);
  await Promise.all([
    ctx.storage.put(keys.foregroundKey, sources.foreground, 'image/png'),
    ctx.storage.put(keys.matteKey, sources.matte, 'image/png'),
  ]);
  return { ...keys, width: sources.width, height: sources.height };
}

/** A corrupt or unsupported image is the user's to fix: fail without retries, with the user-facing message. */
function asUnrecoverableInputError(err: unknown): unknown {
  return err instanceof ImageInputError ? new UnrecoverableError(err.message) : err;
}

/**
 * A pipeline reports what it has finished ('prepared', 'inferred', ...); the user is told what comes next,
 * so each finished step names the stage the job is now in.
 */
const NEXT_STAGE: Record<string, JobStage> = {
  downloaded: 'processing',
  prepared: 'processing',
  inferred: 'encoding',
  encoded: 'saving',
  uploaded: 'saving',
};

/** Progress callback for pipelines: reports the stage now under way, then honours a cancel request. */
function stepper(ctx: JobContext<JobName>, percents: Record<string, number>): (step: string) => Promise<void> {
  return async (step) => {
    await ctx.progress(percents[step] ?? 0, NEXT_STAGE[step] ?? 'processing');
    await ctx.checkCancelled();
  };
}

/** What a one-image pipeline gives back: encoded bytes, their size and its stage timings. */
export interface PipelineResult {
  data: Buffer;
  width: number;
  height: number;
  /** The format the pipeline chose (`auto`); the payload's outputFormat otherwise. */
  format?: OutputFormat;
  /** Where the subject is in the result (background removal). */
  subjectBox?: SubjectBox | null;
  /** What a re-composition needs, stored beside the result (background removal). */
  sources?: { foreground: Buffer; matte: Buffer; width: number; height: number };
  /** How far the cut-out can be trusted (background removal; null without a subject). */
  cutoutConfidence?: number | null;
  timings: Record<string, number>;
}

/**
 * The frame of a tool that turns one input image into one result: download (timed, 'downloaded'), the
 * pipeline (its corrupt-input errors made unrecoverable), upload at index 0 (timed, 'uploaded'), the result.
 */
export async function runSingleImageJob<N extends JobName>(
  ctx: JobContext<N> & { payload: { inputKey: string; outputFormat: string } },
  percents: Record<string, number> & { uploaded: number },
  pipeline: (input: Buffer, step: (stage: string) => Promise<void>) => Promise<PipelineResult>,
  result: {
    provider: ToolProvider;
    notes: string[];
    /** The model or backend that made the result, for its Content Credentials (default: `provider`). */
    madeBy?: string;
  },
): Promise<JobResult> {
  const step = stepper(ctx, percents);
  const timings: Record<string, number> = {};
  await ctx.progress(0, 'fetching');
  let t = performance.now();
  const input = await downloadInput(ctx, ctx.payload.inputKey);
  timings.download = performance.now() - t;
  await step('downloaded');
  const out = await pipeline(input, step).catch((err: unknown) => {
    throw asUnrecoverableInputError(err);
  });
  t = performance.now();
  const [file, sources] = await Promise.all([
    uploadResult(ctx, 0, out, out.format ?? (ctx.payload.outputFormat as OutputFormat), {
      agent: result.madeBy ?? result.provider,
      input: { bytes: input },
    }),
    out.sources ? uploadSources(ctx, out.sources) : undefined,
  ]);
  timings.upload = performance.now() - t;
  await ctx.progress(percents.uploaded, NEXT_STAGE.uploaded!);
  return {
    files: [file],
    thumbnailKeys: previewKeys(ctx, [file]),
    provider: result.provider,
    timings: roundTimings({ ...timings, ...out.timings }),
    notes: result.notes,
    ...(out.subjectBox !== undefined && { subjectBoxes: [out.subjectBox] }),
    ...(sources && { sources }),
    ...(out.cutoutConfidence !== undefined && { cutoutConfidence: out.cutoutConfidence }),
  };
}

/** Whole milliseconds are plenty in job results. */
export function roundTimings(timings: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v)]));
}

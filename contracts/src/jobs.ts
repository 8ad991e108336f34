import { HEARTBEAT_KEY_PREFIX } from './queue';
import { GENERATE_MESSAGES, TOOL_LABELS, type JobName, type UpscaleModel } from './tools';

/**
 * The image-job API (issue "Image jobs"): the job as GET /api/jobs/{id} shows it, its statuses and the
 * user-facing messages. The request schemas are in job-requests.ts, so this module (used by the browser bundle)
 * stays free of zod.
 */

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
/** Statuses a job never leaves. */
export const FINAL_JOB_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'cancelled'];

/** True once the job has its outcome (charge kept, or refunded). */
export function isFinalJobStatus(status: string): boolean {
  return (FINAL_JOB_STATUSES as readonly string[]).includes(status);
}

export const JOB_MESSAGES = {
  /** 503 when the queue cannot take the job (the charge is refunded). */
  queueBusy: 'The image service is busy. Please try again.',
  /** 503 before charging when no live worker can run the tool. */
  toolUnavailable: (tool: JobName) => `${TOOL_LABELS[tool]} is not available right now.`,
  failed: 'The image could not be processed. Your tokens have been refunded.',
  timedOut: 'The image took too long to process. Your tokens have been refunded.',
  cancelled: 'Cancelled. Your tokens have been refunded.',
  alreadyFinished: 'This job has already finished.',
  idempotencyMismatch: 'This Idempotency-Key was already used for a different request.',
  tooManySubmissions: 'Too many requests. Please wait a minute before starting more jobs.',
  promptRequired: GENERATE_MESSAGES.promptRequired,
  promptTooLong: GENERATE_MESSAGES.promptTooLong,
  imageRequired: 'Please choose an image to upload.',
  /** 422 before charging when no live worker runs the chosen upscaling model. */
  modelUnavailable: 'This model is not available right now. Please choose another one.',
} as const;

/**
 * Failure reasons a worker writes for the user to read as they are (the job shows the refund beside them). Any
 * other worker reason is operator detail, and the user reads JOB_MESSAGES.failed.
 */
export const WORKER_USER_MESSAGES = {
  /** The hosted image service's content policy refused the prompt. */
  declined: 'The image service declined this prompt.',
  /** The hosted image service failed, refused our credentials, or sent something that is not an image. */
  serviceFailed: 'The image service could not create this image right now.',
  /** The hosted image service did not answer in time. */
  serviceTimedOut: 'The image service took too long to answer.',
} as const;

/**
 * The user-facing message of a failed job from the worker's failure reason: a WORKER_USER_MESSAGES text, alone
 * or followed by operator detail in brackets ("<message> (<detail>)"), is shown without the detail.
 */
export function userFailureMessage(reason: string): string {
  const known = (Object.values(WORKER_USER_MESSAGES) as string[]).find(
    (m) => reason === m || reason.startsWith(`${m} (`),
  );
  return known ?? JOB_MESSAGES.failed;
}

/** GET /api/tools/quote: the exact cost in tokens (one decimal). */
export interface ToolQuote {
  tool: JobName;
  count: number;
  factor: number | null;
  /** The upscaling model priced (null for the other tools). */
  model: UpscaleModel | null;
  unit_price: number;
  cost: number;
}

/**
 * GET /api/tools/status: per tool, whether a live worker advertises it, what runs it (an execution provider or
 * `remote:<model>`), and the models live workers can run (upscale: UPSCALE_MODELS in that order; empty for tools
 * without a choice). One object per tool, so further per-tool facts can be added without breaking readers.
 */
export interface ToolState {
  available: boolean;
  provider: string | null;
  /** What the model behind `provider` computes in (fp32, fp16, int8); null when unknown or remote. */
  precision?: string | null;
  models: string[];
}
export type ToolStatus = Record<JobName, ToolState>;

/** The subject's box in an image's pixels. */
export interface SubjectBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface JobResultView {
  url: string;
  width: number;
  height: number;
  format: 'png' | 'webp' | 'avif' | 'jpeg';
  bytes: number;
  /**
   * A small WebP preview (long side at most 256 px) for lists, readable like `url`; null for results stored
   * before previews were written (absent in views built before the field existed: the same).
   */
  thumbnail_url?: string | null;
  /** Background removal: where the subject is in the result (null: no subject found); absent for other tools. */
  subject_box?: SubjectBox | null;
}

/** A succeeded background removal's stored cut-out, for re-composition (full size, owner-only URLs). */
export interface ComposeSourcesView {
  /** The decontaminated foreground, opaque (every pixel's colour kept). */
  foreground_url: string;
  /** The matte, a greyscale PNG. */
  matte_url: string;
  width: number;
  height: number;
}

/** One re-composition of a job (POST /api/jobs/{id}/compose). */
export interface CompositionView {
  url: string;
  width: number;
  height: number;
  format: 'png' | 'webp' | 'avif' | 'jpeg';
  subject_box: SubjectBox | null;
  created_at: string;
}

/** One job as GET /api/jobs/{id} returns it. Token amounts are numbers with one decimal. */
export interface JobView {
  id: string;
  tool: JobName;
  status: JobStatus;
  progress: number;
  stage: string | null;
  /** 1 = next to run; null once running or finished. */
  queue_position: number | null;
  params: Record<string, unknown>;
  cost: number;
  refunded: boolean;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  input_url: string | null;
  /** The uploaded file's name as the user's computer called it; null for generation. */
  input_name: string | null;
  /** Seconds until the result is expected, from the workers' recent timings for this tool and size. */
  eta_seconds: number | null;
  results: JobResultView[];
  /** Files deleted by the user (DELETE) or by retention; the history row stays. */
  deleted: boolean;
  expired: boolean;
  /** The batch the job belongs to (POST /api/batches); null or absent for a single job. */
  batch_id?: string | null;
  /** Background removal: what compose renders from; null for other tools, unfinished jobs and gone files. */
  compose_sources?: ComposeSourcesView | null;
  /** Background removal: its re-compositions, oldest first (empty for other tools and gone files). */
  compositions?: CompositionView[];
}

/** A page of history or projects. */
export interface JobPage {
  items: JobView[];
  page: number;
  per_page: number;
  total: number;
  last_page: number;
}

/**
 * Redis key of one worker's heartbeat in the queue's Redis. The BullMQ prefix keeps parallel test queues
 * (and several deployments on one Redis) apart; with the default prefix "bull" the API also accepts the
 * bare `<HEARTBEAT_KEY_PREFIX><workerId>` form.
 */
export function heartbeatKey(queuePrefix: string, workerId: string): string {
  return `${queuePrefix}:${HEARTBEAT_KEY_PREFIX}${workerId}`;
}

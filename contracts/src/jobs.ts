import { HEARTBEAT_KEY_PREFIX } from './queue';
import { GENERATE_MESSAGES, TOOL_LABELS, type JobName } from './tools';
import type { z } from 'zod';
import type {
  composeSourcesViewSchema,
  compositionViewSchema,
  jobPageSchema,
  jobResultViewSchema,
  jobViewSchema,
} from './api-schemas';
import type { toolQuoteSchema, toolStateSchema, toolStatusSchema } from './catalog-schemas';

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
export type ToolQuote = z.infer<typeof toolQuoteSchema>;

/**
 * GET /api/tools/status: per tool, whether a live worker advertises it, what runs it (an execution provider or
 * `remote:<model>`), and the models live workers can run (upscale: UPSCALE_MODELS in that order; empty for tools
 * without a choice). One object per tool, so further per-tool facts can be added without breaking readers.
 */
export type ToolState = z.infer<typeof toolStateSchema>;
export type ToolStatus = z.infer<typeof toolStatusSchema>;

/**
 * The job views are the developer API's documented reply schemas (api-schemas.ts), read here as types only so
 * this module stays free of zod at run time.
 */
export type JobResultView = z.infer<typeof jobResultViewSchema>;
/** One job as GET /api/jobs/{id} returns it. Token amounts are numbers with one decimal. */
export type JobView = z.infer<typeof jobViewSchema>;
/** The subject's box in an image's pixels. */
export type SubjectBox = NonNullable<z.infer<typeof compositionViewSchema>['subject_box']>;
/** A succeeded background removal's stored cut-out, for re-composition (full size, owner-only URLs). */
export type ComposeSourcesView = z.infer<typeof composeSourcesViewSchema>;
/** One re-composition of a job (POST /api/jobs/{id}/compose). */
export type CompositionView = z.infer<typeof compositionViewSchema>;
/** A page of history or projects. */
export type JobPage = z.infer<typeof jobPageSchema>;

/**
 * Redis key of one worker's heartbeat in the queue's Redis. The BullMQ prefix keeps parallel test queues
 * (and several deployments on one Redis) apart; with the default prefix "bull" the API also accepts the
 * bare `<HEARTBEAT_KEY_PREFIX><workerId>` form.
 */
export function heartbeatKey(queuePrefix: string, workerId: string): string {
  return `${queuePrefix}:${HEARTBEAT_KEY_PREFIX}${workerId}`;
}

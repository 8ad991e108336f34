/**
 * The queue contract between the API (producer) and the GPU workers (consumers), summed up in
 * docs/architecture.md#queue-contract-api---worker.
 * Payloads carry ids, S3 keys and parameters only: never image bytes, never secrets. The job names (JOB_NAMES)
 * and payload schemas come from the tool definitions in tools/; the result and heartbeat schemas are in
 * queue-schemas.ts: this module stays free of zod, so the browser bundle can use its constants without the
 * validation library.
 */

/** The one BullMQ queue every tool job goes through. */
export const QUEUE_NAME = 'images';

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

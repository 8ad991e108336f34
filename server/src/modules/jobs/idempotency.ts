import { createHash } from 'node:crypto';
import { JOB_MESSAGES } from '@imagestudio/contracts';
import { validationError } from '../../lib/errors';

/**
 * The Idempotency-Key of job submissions (single tool calls and batches): the same key with the same request
 * answers with what the first request created and charges nothing; the same key with another request is a 422.
 */

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

/** 422 unless an Idempotency-Key header is 1-200 visible ASCII characters (single jobs and batches alike). */
export function checkIdempotencyKey(key: string | undefined): void {
  if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
    throw validationError({ 'Idempotency-Key': ['Idempotency-Key must be 1-200 visible ASCII characters.'] });
  }
}

/**
 * What makes two requests "the same": the tool, its checked options and the uploaded content (the image's
 * bytes, or a batch's fingerprint of its files). Stored with the row, so it must not change form.
 */
export function requestFingerprint(tool: string, params: Record<string, unknown>, content?: Buffer | string): string {
  const hash = createHash('sha256').update(JSON.stringify({ tool, params }));
  if (content !== undefined) hash.update(content);
  return hash.digest('hex');
}

export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === '23505';
}

/** A request made under an Idempotency-Key: the key, its fingerprint, and how to find what it created. */
export interface KeyedRequest<Row extends { request_hash: string | null }> {
  key: string | undefined;
  /** requestFingerprint of this request; null without a key. */
  hash: string | null;
  /** The row created earlier under the key (the job, or the batch), if any. */
  find: (key: string) => Promise<Row | null>;
}

export type OnceOutcome<Row, T> = { replayed: true; earlier: Row } | { replayed: false; value: T };

async function earlier<Row extends { request_hash: string | null }>(req: KeyedRequest<Row>): Promise<Row | null> {
  if (!req.key || !req.hash) return null;
  const row = await req.find(req.key);
  if (row && row.request_hash !== req.hash)
    throw validationError({ 'Idempotency-Key': [JOB_MESSAGES.idempotencyMismatch] });
  return row;
}

/**
 * Runs `create` once per Idempotency-Key: a key seen before answers with the row it created. When two requests
 * with one key race, the loser's insert hits the unique index and it answers with the winner's row.
 */
export async function oncePerKey<Row extends { request_hash: string | null }, T>(
  req: KeyedRequest<Row>,
  create: () => Promise<T>,
): Promise<OnceOutcome<Row, T>> {
  const before = await earlier(req);
  if (before) return { replayed: true, earlier: before };
  try {
    return { replayed: false, value: await create() };
  } catch (err) {
    const winner = isUniqueViolation(err) ? await earlier(req) : null;
    if (winner) return { replayed: true, earlier: winner };
    throw err;
  }
}

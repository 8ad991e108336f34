import type { Knex } from 'knex';
import type { BatchSkipped, BatchTool } from '@imagestudio/contracts';
import { newestFirstPage } from '../../lib/db';
import type { JobRow } from '../jobs';

/** A batches row as stored. */
export interface BatchRow {
  id: string;
  user_id: string;
  tool: BatchTool;
  params: Record<string, unknown>;
  item_count: number;
  idempotency_key: string | null;
  request_hash: string | null;
  request_id: string | null;
  /** ZIP entries left out of the batch, with why. */
  skipped: BatchSkipped[];
  created_at: Date;
}

export type NewBatch = Omit<BatchRow, 'created_at'>;

export async function insertBatch(trx: Knex.Transaction, batch: NewBatch): Promise<BatchRow> {
  const [row] = await trx('batches')
    .insert({ ...batch, params: JSON.stringify(batch.params), skipped: JSON.stringify(batch.skipped) })
    .returning('*');
  return row as BatchRow;
}

/** The batch only when it belongs to the user (others' batches read as missing). */
export async function findForUser(db: Knex, id: string, userId: string): Promise<BatchRow | null> {
  return ((await db('batches').where({ id, user_id: userId }).first()) as BatchRow | undefined) ?? null;
}

export async function findByIdempotencyKey(db: Knex, userId: string, key: string): Promise<BatchRow | null> {
  return (
    ((await db('batches').where({ user_id: userId, idempotency_key: key }).first()) as BatchRow | undefined) ?? null
  );
}

/** Every job of the batches (retried items included), in upload order, retries after what they replaced. */
export async function itemsOf(db: Knex, batchIds: string[]): Promise<JobRow[]> {
  if (batchIds.length === 0) return [];
  return (await db('image_jobs')
    .whereIn('batch_id', batchIds)
    .orderBy([
      { column: 'batch_position', order: 'asc' },
      { column: 'created_at', order: 'asc' },
    ])) as JobRow[];
}

/** A page of the user's batches, newest first, plus the total count. */
export async function listForUser(
  db: Knex,
  userId: string,
  page: number,
  perPage: number,
): Promise<{ rows: BatchRow[]; total: number }> {
  const base = db('batches').where({ user_id: userId });
  return newestFirstPage<BatchRow>(base, page, perPage);
}

import type { Knex } from 'knex';

export type LedgerKind = 'grant' | 'purchase' | 'spend' | 'refund' | 'reversal' | 'adjustment';

export interface LedgerRow {
  id: string;
  user_id: string;
  delta_tenths: string;
  kind: LedgerKind;
  idempotency_key: string;
  balance_after_tenths: string;
  reason: string | null;
  metadata: Record<string, unknown>;
  created_at: Date;
}

/** Locks the user's row for the rest of the transaction and returns the balance in tenths (null: no user). */
export async function lockBalance(trx: Knex.Transaction, userId: string): Promise<number | null> {
  const row = await trx('users').where({ id: userId }).forUpdate().first('balance_tenths');
  return row ? Number(row.balance_tenths) : null;
}

/** The user's balance in tenths without a lock (null: no user); a cheap check before a locked one decides. */
export async function balanceOf(db: Knex, userId: string): Promise<number | null> {
  const row = await db('users').where({ id: userId }).first('balance_tenths');
  return row ? Number(row.balance_tenths) : null;
}

/** Inserts a ledger row unless its idempotency key exists; returns the new row or null when it did. */
export async function insertEntry(
  trx: Knex.Transaction,
  entry: Omit<LedgerRow, 'id' | 'created_at' | 'delta_tenths' | 'balance_after_tenths' | 'reason'> & {
    delta_tenths: number;
    balance_after_tenths: number;
    reason?: string | null;
  },
): Promise<LedgerRow | null> {
  const rows = await trx('token_ledger')
    .insert({ ...entry, metadata: JSON.stringify(entry.metadata) })
    .onConflict('idempotency_key')
    .ignore()
    .returning('*');
  return (rows[0] as LedgerRow | undefined) ?? null;
}

export async function setBalance(trx: Knex.Transaction, userId: string, balanceTenths: number): Promise<void> {
  await trx('users').where({ id: userId }).update({ balance_tenths: balanceTenths, updated_at: trx.fn.now() });
}

export async function findByKey(db: Knex, key: string): Promise<LedgerRow | null> {
  return ((await db('token_ledger').where({ idempotency_key: key }).first()) as LedgerRow | undefined) ?? null;
}

export async function sumForUser(db: Knex, userId: string): Promise<number> {
  const row = await db('token_ledger')
    .where({ user_id: userId })
    .sum<{ sum: string | null }>('delta_tenths as sum')
    .first();
  return Number(row?.sum ?? 0);
}

export async function listForUser(db: Knex, userId: string, limit = 50, offset = 0): Promise<LedgerRow[]> {
  return db('token_ledger').where({ user_id: userId }).orderBy('id', 'desc').limit(limit).offset(offset);
}

export async function countForUser(db: Knex, userId: string): Promise<number> {
  const row = await db('token_ledger').where({ user_id: userId }).count<{ count: string }>('id as count').first();
  return Number(row?.count ?? 0);
}

/**
 * Up to `limit` rows of the user older than row `beforeId` (from the newest when null), newest first: one page of
 * an export. Each page is one short query, so a download the client stops reading holds no connection between
 * pages (a cursor held open for a stalled reader emptied the pool).
 */
export async function pageBeforeId(
  db: Knex,
  userId: string,
  beforeId: string | null,
  limit: number,
): Promise<LedgerRow[]> {
  const query = db('token_ledger').where({ user_id: userId });
  if (beforeId !== null) void query.andWhere('id', '<', beforeId);
  return query.orderBy('id', 'desc').limit(limit);
}

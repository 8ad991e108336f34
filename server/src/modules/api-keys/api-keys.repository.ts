import type { Knex } from 'knex';

export interface ApiKeyRow {
  id: string;
  user_id: string;
  name: string;
  key_hash: string;
  prefix: string;
  last4: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export type NewApiKey = Pick<ApiKeyRow, 'user_id' | 'name' | 'key_hash' | 'prefix' | 'last4' | 'expires_at'>;

export async function insertKey(db: Knex, key: NewApiKey): Promise<ApiKeyRow> {
  const [row] = await db('api_keys').insert(key).returning('*');
  return row as ApiKeyRow;
}

/** The user's keys that still work (not revoked, not expired), newest first. */
export function listActive(db: Knex, userId: string): Promise<ApiKeyRow[]> {
  return db('api_keys')
    .where({ user_id: userId })
    .whereNull('revoked_at')
    .andWhere((q) => q.whereNull('expires_at').orWhere('expires_at', '>', db.fn.now()))
    .orderBy('created_at', 'desc');
}

/** Marks the key revoked if it is the user's and still active; false when there was none. */
export async function revoke(db: Knex, userId: string, id: string): Promise<boolean> {
  const count = await db('api_keys')
    .where({ id, user_id: userId })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() });
  return count > 0;
}

/** The key with this hash when it is neither revoked nor expired. */
export async function findUsable(db: Knex, keyHash: string): Promise<ApiKeyRow | null> {
  const row = await db('api_keys')
    .where({ key_hash: keyHash })
    .whereNull('revoked_at')
    .andWhere((q) => q.whereNull('expires_at').orWhere('expires_at', '>', db.fn.now()))
    .first();
  return (row as ApiKeyRow | undefined) ?? null;
}

/** Records a use, writing at most once a minute per key (a busy key must not write on every request). */
export async function touchLastUsed(db: Knex, id: string): Promise<void> {
  await db('api_keys')
    .where({ id })
    .andWhere((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', db.raw("now() - interval '1 minute'")))
    .update({ last_used_at: db.fn.now() });
}

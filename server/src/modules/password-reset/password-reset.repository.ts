import type { Knex } from 'knex';

export interface PasswordResetRow {
  user_id: string;
  token_hash: string;
  expires_at: Date;
  created_at: Date;
}

/** Stores the user's one live token, replacing (and so voiding) any older one. */
export async function replaceToken(db: Knex, userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
  await db('password_resets')
    .insert({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt, created_at: db.fn.now() })
    .onConflict('user_id')
    .merge(['token_hash', 'expires_at', 'created_at']);
}

export async function findByUser(db: Knex, userId: string): Promise<PasswordResetRow | null> {
  return ((await db('password_resets').where({ user_id: userId }).first()) as PasswordResetRow | undefined) ?? null;
}

/** Deletes the token if it is still this one; true for exactly one of several concurrent uses. */
export async function consumeToken(db: Knex, userId: string, tokenHash: string): Promise<boolean> {
  const count = await db('password_resets').where({ user_id: userId, token_hash: tokenHash }).del();
  return count > 0;
}

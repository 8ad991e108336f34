import type { Knex } from 'knex';

export interface EmailChangeRow {
  user_id: string;
  new_email: string;
  token_hash: string;
  expires_at: Date;
}

/** Stores the user's one pending change, replacing (and so voiding) any older one. */
export async function replacePending(db: Knex, row: EmailChangeRow): Promise<void> {
  await db('email_changes')
    .insert({ ...row, created_at: db.fn.now() })
    .onConflict('user_id')
    .merge(['new_email', 'token_hash', 'expires_at', 'created_at']);
}

/**
 * Takes the pending change with this token hash out of the table (single use even when the link is opened
 * twice at once): the row, or null when no change has this token.
 */
export async function takePending(db: Knex, tokenHash: string): Promise<EmailChangeRow | null> {
  const [row] = (await db('email_changes').where({ token_hash: tokenHash }).del().returning('*')) as EmailChangeRow[];
  return row ?? null;
}

/** Sets the user's email (confirmed by the link, so also verified); throws a unique violation when taken. */
export async function updateEmail(db: Knex, userId: string, email: string): Promise<void> {
  await db('users')
    .where({ id: userId })
    .update({
      email,
      email_verified_at: db.raw('coalesce(email_verified_at, now())'),
      updated_at: db.fn.now(),
    });
}

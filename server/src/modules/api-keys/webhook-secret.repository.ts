import type { Knex } from 'knex';

export async function findSecret(db: Knex, userId: string): Promise<string | null> {
  const row = (await db('webhook_secrets').where({ user_id: userId }).first('secret')) as
    { secret: string } | undefined;
  return row?.secret ?? null;
}

export async function insertSecretIfMissing(db: Knex, userId: string, secret: string): Promise<void> {
  await db('webhook_secrets').insert({ user_id: userId, secret }).onConflict('user_id').ignore();
}

/** Sets the user's secret, whether or not one existed. */
export async function replaceSecret(db: Knex, userId: string, secret: string): Promise<void> {
  await db('webhook_secrets').insert({ user_id: userId, secret }).onConflict('user_id').merge(['secret']);
}

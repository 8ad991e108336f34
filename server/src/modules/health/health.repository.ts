import type { Knex } from 'knex';

/** The cheapest round trip that proves Postgres answers queries. */
export async function pingDatabase(db: Knex): Promise<void> {
  await db.raw('select 1');
}

import type { Knex } from 'knex';

/**
 * A user's ledger rows by id: the token-activity pages and the CSV export read them newest first by id, the
 * export a page at a time (`id < last`), and without this index each page sorted all the user's rows again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('token_ledger', (t) => {
    t.index(['user_id', 'id'], 'token_ledger_user_id_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('token_ledger', (t) => {
    t.dropIndex(['user_id', 'id'], 'token_ledger_user_id_id_index');
  });
}

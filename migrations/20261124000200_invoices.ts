import type { Knex } from 'knex';

/**
 * Invoice numbers and the buyer's language on deposits. A paid deposit gets the next number of its
 * seller's yearly sequence (INV-2026-000123) in the transaction that credits it, so numbers are
 * sequential without gaps and never reused. `lang` is the language the customer checked out in: the
 * confirmation and refund emails are written in it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('invoice_sequences', (t) => {
    t.text('seller').notNullable();
    t.integer('year').notNullable();
    t.integer('last_number').notNullable();
    t.primary(['seller', 'year']);
  });
  await knex.schema.alterTable('deposits', (t) => {
    t.text('invoice_number').unique();
    t.text('lang').notNullable().defaultTo('en');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('deposits', (t) => {
    t.dropColumn('invoice_number');
    t.dropColumn('lang');
  });
  await knex.schema.dropTable('invoice_sequences');
}

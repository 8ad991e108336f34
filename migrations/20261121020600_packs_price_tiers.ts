import type { Knex } from 'knex';

/**
 * Token packs (price in EUR cents, credits in tenths of a token) and the per-token price tiers
 * (bounds in tenths, price per token in EUR as an exact numeric).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('packs', (t) => {
    t.increments('id').primary();
    t.text('title').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.integer('price_cents').notNullable();
    t.integer('credits_tenths').notNullable();
    t.integer('position').notNullable().defaultTo(0);
    t.boolean('hidden').notNullable().defaultTo(false);
    t.timestamps(true, true);
  });
  await knex.raw('alter table packs add constraint packs_price_non_negative check (price_cents >= 0)');
  await knex.raw('alter table packs add constraint packs_credits_positive check (credits_tenths > 0)');
  await knex.schema.createTable('token_price_tiers', (t) => {
    t.increments('id').primary();
    t.integer('min_tenths').notNullable().unique();
    t.integer('max_tenths');
    t.decimal('price_eur', 12, 6).notNullable();
  });
  await knex.raw('alter table token_price_tiers add constraint token_price_tiers_price_positive check (price_eur > 0)');
  for (const table of ['packs', 'token_price_tiers']) {
    await knex.raw(`create trigger ${table}_bump_catalog after insert or update or delete or truncate on ${table}
      for each statement execute function bump_catalog_version()`);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('token_price_tiers');
  await knex.schema.dropTable('packs');
}

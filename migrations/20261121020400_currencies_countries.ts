import type { Knex } from 'knex';

/**
 * Currencies (rate `value` = units per 1 EUR, exact numeric) and ISO 3166-1 countries (id = the ISO
 * numeric code, so ids are the same in every database).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('currencies', (t) => {
    t.text('code').primary();
    t.decimal('value', 18, 8).notNullable();
    t.text('symbol').notNullable();
    t.boolean('is_default').notNullable().defaultTo(false);
    t.integer('position').notNullable().defaultTo(0);
    t.boolean('hidden').notNullable().defaultTo(false);
  });
  await knex.raw("alter table currencies add constraint currencies_code_format check (code ~ '^[A-Z]{3}$')");
  await knex.raw('alter table currencies add constraint currencies_value_positive check (value > 0)');
  await knex.raw('create unique index currencies_one_default on currencies (is_default) where is_default');
  await knex.schema.createTable('countries', (t) => {
    t.integer('id').primary();
    t.string('iso', 2).notNullable().unique();
    t.text('title').notNullable();
  });
  for (const table of ['currencies', 'countries']) {
    await knex.raw(`create trigger ${table}_bump_catalog after insert or update or delete or truncate on ${table}
      for each statement execute function bump_catalog_version()`);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('countries');
  await knex.schema.dropTable('currencies');
}

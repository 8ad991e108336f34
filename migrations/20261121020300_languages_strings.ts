import type { Knex } from 'knex';

/** Interface languages and their translation strings (flat key -> text per language). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('languages', (t) => {
    t.increments('id').primary();
    t.text('code').notNullable().unique();
    t.text('title').notNullable();
    t.boolean('is_default').notNullable().defaultTo(false);
    t.integer('position').notNullable().defaultTo(0);
  });
  // At most one default language.
  await knex.raw('create unique index languages_one_default on languages (is_default) where is_default');
  await knex.schema.createTable('localization_strings', (t) => {
    t.integer('language_id').notNullable().references('languages.id').onDelete('cascade');
    t.text('key').notNullable();
    t.text('value').notNullable();
    t.primary(['language_id', 'key']);
  });
  for (const table of ['languages', 'localization_strings']) {
    await knex.raw(`create trigger ${table}_bump_catalog after insert or update or delete or truncate on ${table}
      for each statement execute function bump_catalog_version()`);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('localization_strings');
  await knex.schema.dropTable('languages');
}

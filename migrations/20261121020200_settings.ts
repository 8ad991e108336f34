import type { Knex } from 'knex';

/** Site settings, one row per key (values validated by contracts' settingsSchema); changes bump the catalog version. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('settings', (t) => {
    t.text('key').primary();
    t.jsonb('value').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`create trigger settings_bump_catalog after insert or update or delete or truncate on settings
    for each statement execute function bump_catalog_version()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('settings');
}

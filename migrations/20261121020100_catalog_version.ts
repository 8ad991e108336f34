import type { Knex } from 'knex';

/**
 * One counter that every change to a catalog table bumps (statement-level triggers are attached by the
 * catalog migrations). API processes cache catalog replies in memory and compare this number to know
 * when another process (the operator CLI, a seed, psql) changed the data.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('catalog_version', (t) => {
    t.smallint('id').primary();
    t.bigInteger('version').notNullable().defaultTo(1);
    t.timestamp('changed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('alter table catalog_version add constraint catalog_version_single_row check (id = 1)');
  await knex('catalog_version').insert({ id: 1, version: 1 });
  await knex.raw(`
    create function bump_catalog_version() returns trigger language plpgsql as $$
    begin
      update catalog_version set version = version + 1, changed_at = now() where id = 1;
      return null;
    end $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists bump_catalog_version() cascade');
  await knex.schema.dropTable('catalog_version');
}

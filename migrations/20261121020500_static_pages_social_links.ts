import type { Knex } from 'knex';

/** Static pages (HTML sanitized when written) and the footer's social links. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('static_pages', (t) => {
    t.increments('id').primary();
    t.text('slug').unique();
    t.text('title').notNullable();
    t.text('content').notNullable();
    t.boolean('is_terms').notNullable().defaultTo(false);
    t.boolean('is_privacy').notNullable().defaultTo(false);
    t.integer('position').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    "alter table static_pages add constraint static_pages_slug_format check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$')",
  );
  await knex.schema.createTable('social_links', (t) => {
    t.increments('id').primary();
    t.text('title').notNullable();
    t.text('url').notNullable();
    t.text('icon').notNullable();
    t.integer('position').notNullable().defaultTo(0);
  });
  for (const table of ['static_pages', 'social_links']) {
    await knex.raw(`create trigger ${table}_bump_catalog after insert or update or delete or truncate on ${table}
      for each statement execute function bump_catalog_version()`);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('social_links');
  await knex.schema.dropTable('static_pages');
}

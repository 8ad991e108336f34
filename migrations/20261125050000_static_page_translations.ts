import type { Knex } from 'knex';

/**
 * A static page's text in another language (title and sanitized HTML), one row per page and language code.
 * The page row itself stays the default-language text, its id, slug and flags are shared, so links such as
 * /terms and /static-page/1 stay the same in every language; a language without a row gets the default text.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('static_page_translations', (t) => {
    t.integer('page_id').notNullable().references('id').inTable('static_pages').onDelete('CASCADE');
    t.string('language_code', 16).notNullable();
    t.text('title').notNullable();
    t.text('content').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['page_id', 'language_code']);
  });
  await knex.raw(`create trigger static_page_translations_bump_catalog after insert or update or delete or truncate
    on static_page_translations for each statement execute function bump_catalog_version()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('static_page_translations');
}

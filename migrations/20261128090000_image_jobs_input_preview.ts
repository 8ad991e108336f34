import type { Knex } from 'knex';

/**
 * The S3 key of an input's browser preview: a WebP made at upload for inputs a browser cannot show (HEIC, AVIF,
 * TIFF) and for large ones, stored beside the input (so the job's inputs prefix removes it with the input). Null
 * when the input needed none, when making it failed, and for jobs made before this column existed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('image_jobs', (t) => {
    t.text('input_preview_key');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('image_jobs', (t) => {
    t.dropColumn('input_preview_key');
  });
}

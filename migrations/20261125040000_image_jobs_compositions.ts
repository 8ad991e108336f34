import type { Knex } from 'knex';

/**
 * The pictures re-composed from a background removal's stored cut-out (POST /api/jobs/{id}/compose):
 * each one's S3 key, size, format and subject box, listed with the job. Their files live under the job's results
 * prefix, so retention and deletion remove them with the results; the list stays like the rest of the history.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('image_jobs', (t) => {
    t.jsonb('compositions').notNullable().defaultTo('[]');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('image_jobs', (t) => {
    t.dropColumn('compositions');
  });
}

import type { Knex } from 'knex';

/**
 * What the uploaded image was: its file name (results download as "<name>-no-background.png") and its size
 * in pixels (time-left estimates compare a job with recent jobs of a similar size). Null for generation and
 * for jobs made before these columns existed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('image_jobs', (t) => {
    t.text('input_name');
    t.integer('input_width');
    t.integer('input_height');
  });
  // Time-left estimates read the latest successes of one tool.
  await knex.raw(
    `create index image_jobs_recent_success_idx on image_jobs (tool, finished_at desc) where status = 'succeeded'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists image_jobs_recent_success_idx');
  await knex.schema.alterTable('image_jobs', (t) => {
    t.dropColumn('input_name');
    t.dropColumn('input_width');
    t.dropColumn('input_height');
  });
}

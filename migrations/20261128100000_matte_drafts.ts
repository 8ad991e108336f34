import type { Knex } from 'knex';

/**
 * The touch-up brush's draft of a background removal (PUT /api/jobs/{id}/matte-draft): the editor's strokes as a
 * small JSON list, saved as they are made. A row beside the job rather than a file under its results prefix: a
 * save (about one a second while painting) is one upsert, refused in the same statement once the job's files are
 * gone, and marking them gone deletes it in the same transaction (jobs.repository.ts), so deletion and retention
 * remove it with no race against a save in flight. Its own table, not a column of image_jobs, so the history
 * and projects lists never read the strokes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('matte_drafts', (t) => {
    t.uuid('job_id').primary().references('image_jobs.id').onDelete('cascade');
    t.jsonb('strokes').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('matte_drafts');
}

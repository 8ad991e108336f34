import type { Knex } from 'knex';

/**
 * The entries of a batch's ZIP that were not images (a notes.txt, a damaged fake.png) are skipped instead of
 * failing the whole batch; the batch keeps their names and reasons so every view can say what was left out
 * and that it cost nothing.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('batches', (t) => {
    t.jsonb('skipped').notNullable().defaultTo('[]');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('batches', (t) => {
    t.dropColumn('skipped');
  });
}

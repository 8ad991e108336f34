import type { Knex } from 'knex';

/**
 * A counter stored in every signed-in session: bumping it (password reset or change) ends every other
 * session of the user at its next request, without scanning Redis for them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.integer('session_epoch').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('session_epoch');
  });
}

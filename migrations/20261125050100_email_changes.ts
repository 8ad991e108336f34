import type { Knex } from 'knex';

/**
 * A change of email address waiting for its confirmation: at most one per user (a newer request replaces it,
 * voiding the older link), deleted when its link is used. Only a SHA-256 of the link's token is stored.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('email_changes', (t) => {
    t.uuid('user_id').primary().references('users.id').onDelete('cascade');
    t.text('new_email').notNullable();
    t.text('token_hash').notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('email_changes');
}

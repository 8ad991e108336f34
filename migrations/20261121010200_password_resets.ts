import type { Knex } from 'knex';

/**
 * At most one live password-reset token per user: a newer request replaces the row (voiding the older
 * link), using it deletes the row (single use). Only a SHA-256 of the token is stored.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('password_resets', (t) => {
    t.uuid('user_id').primary().references('users.id').onDelete('cascade');
    t.text('token_hash').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('password_resets');
}

import type { Knex } from 'knex';

/**
 * API keys: only the SHA-256 of each key is stored (the key itself is shown once, at creation); the
 * prefix and last four characters let the owner recognise a key in the list. Revoked keys keep their row.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_keys', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('cascade');
    t.text('name').notNullable();
    /** Hex SHA-256 of the whole key; the lookup on every API request. */
    t.text('key_hash').notNullable().unique();
    t.text('prefix').notNullable();
    t.text('last4').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.index(['user_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_keys');
}

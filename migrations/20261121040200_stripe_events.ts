import type { Knex } from 'knex';

/**
 * Stripe webhook events already handled, keyed by event id: a redelivered event (Stripe retries, or the
 * same event arriving many times at once) is recognised and changes nothing the second time.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('stripe_events', (t) => {
    t.text('id').primary();
    t.text('type').notNullable();
    t.uuid('deposit_id').references('deposits.id').onDelete('set null');
    t.text('outcome').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('stripe_events');
}

import type { Knex } from 'knex';

/**
 * Deposits: one row per top-up attempt (statuses in docs/money.md#checkout). Money is integer minor units of the
 * deposit's currency; tokens are integer tenths. The billing data and what was bought are snapshots,
 * so receipts stay true when packs, prices or the profile change later.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('deposits', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('restrict');
    t.text('status').notNullable().defaultTo('Pending');
    t.text('provider').notNullable();
    t.bigInteger('tokens_tenths').notNullable();
    t.integer('pack_id');
    t.text('pack_title');
    t.text('currency').notNullable();
    t.bigInteger('net_minor').notNullable();
    t.bigInteger('vat_minor').notNullable();
    t.bigInteger('amount_minor').notNullable();
    t.decimal('vat_percent', 6, 3).notNullable().defaultTo(0);
    t.integer('payment_method_id');
    t.text('payment_method_code');
    t.text('payment_method_title');
    t.jsonb('billing').notNullable().defaultTo('{}');
    t.text('stripe_session_id').unique();
    t.text('stripe_payment_intent_id');
    t.text('checkout_url');
    t.text('error');
    t.bigInteger('refunded_minor').notNullable().defaultTo(0);
    t.bigInteger('reversed_tenths').notNullable().defaultTo(0);
    t.timestamp('completed_at', { useTz: true });
    /** Last time the reconciler asked the provider about it: passes go round-robin, so no deposit starves. */
    t.timestamp('checked_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['user_id', 'created_at']);
    t.index(['stripe_payment_intent_id']);
  });
  await knex.raw(`alter table deposits add constraint deposits_status_check
    check (status in ('Pending', 'Processing', 'Success', 'Error', 'Cancelled'))`);
  await knex.raw(`alter table deposits add constraint deposits_provider_check check (provider in ('stripe', 'test'))`);
  await knex.raw(
    'alter table deposits add constraint deposits_amounts_check check (tokens_tenths > 0 and amount_minor > 0 and net_minor >= 0 and vat_minor >= 0)',
  );
  // The reconciler scans open deposits by age; a partial index keeps that cheap as history grows.
  await knex.raw(
    `create index deposits_open_by_check on deposits (checked_at nulls first, created_at) where status in ('Pending', 'Processing')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('deposits');
}

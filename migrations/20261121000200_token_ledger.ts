import type { Knex } from 'knex';

/**
 * The append-only token ledger (docs/money.md#the-ledger): one row per grant, purchase, spend, refund,
 * reversal or adjustment, each with a unique idempotency key. A trigger refuses UPDATE and DELETE.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('token_ledger', (t) => {
    t.bigIncrements('id').primary();
    t.uuid('user_id').notNullable().references('users.id').onDelete('restrict');
    t.bigInteger('delta_tenths').notNullable();
    t.text('kind').notNullable();
    t.text('idempotency_key').notNullable().unique();
    t.bigInteger('balance_after_tenths').notNullable();
    t.text('reason');
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'created_at']);
  });
  await knex.raw(`alter table token_ledger add constraint token_ledger_kind_check
    check (kind in ('grant', 'purchase', 'spend', 'refund', 'reversal', 'adjustment'))`);
  await knex.raw(
    'alter table token_ledger add constraint token_ledger_balance_after_non_negative check (balance_after_tenths >= 0)',
  );
  await knex.raw(`
    create function token_ledger_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'token_ledger is append-only';
    end $$;
    create trigger token_ledger_no_update before update or delete on token_ledger
      for each row execute function token_ledger_append_only();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('token_ledger');
  await knex.raw('drop function if exists token_ledger_append_only()');
}

import type { Knex } from 'knex';

/** Every change made with the operator CLI (`npm run admin`): who ran what, with which arguments. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('operator_audit_log', (t) => {
    t.bigIncrements('id').primary();
    t.text('operator').notNullable();
    t.text('command').notNullable();
    t.jsonb('details').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('operator_audit_log');
}

import type { Knex } from 'knex';

/**
 * The operator console writes to the same audit table as the CLI: who acted (their account), on what
 * (`user:<id>`, `job:<id>`), from which address. `operator` keeps the actor's readable name (the email
 * for the console, the OS user for the CLI); `details` holds before/after and the request's fields.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('operator_audit_log', (t) => {
    t.uuid('actor_id').references('id').inTable('users').onDelete('set null');
    t.text('target');
    t.text('ip');
  });
  await knex.raw('create index operator_audit_log_command_idx on operator_audit_log (command, id desc)');
  await knex.raw('create index operator_audit_log_operator_idx on operator_audit_log (operator, id desc)');
  await knex.raw('create index operator_audit_log_target_idx on operator_audit_log (target, id desc)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists operator_audit_log_target_idx');
  await knex.raw('drop index if exists operator_audit_log_operator_idx');
  await knex.raw('drop index if exists operator_audit_log_command_idx');
  await knex.schema.alterTable('operator_audit_log', (t) => {
    t.dropColumn('ip');
    t.dropColumn('target');
    t.dropColumn('actor_id');
  });
}

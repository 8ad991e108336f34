import type { Knex } from 'knex';

/**
 * Who may use the operator console: `customer` (every account) or `admin`. Only the operator CLI
 * (`npm run admin -- users promote|demote EMAIL`) changes it; no route, form or API key can.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`update users set role = 'customer' where role <> 'admin'`);
  await knex.raw(`alter table users alter column role set default 'customer'`);
  await knex.raw(`alter table users add constraint users_role_check check (role in ('customer', 'admin'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table users drop constraint users_role_check');
  await knex.raw(`alter table users alter column role set default 'user'`);
  await knex.raw(`update users set role = 'user' where role = 'customer'`);
}

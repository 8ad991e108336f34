import type { Knex } from 'knex';

/** Customer accounts. Balances are integer tenths of a token and can never go negative. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('email').notNullable();
    t.text('name').notNullable().defaultTo('');
    t.text('surname').notNullable().defaultTo('');
    t.text('phone').notNullable().defaultTo('');
    t.text('phone_e164');
    t.text('password_hash').notNullable();
    t.timestamp('email_verified_at', { useTz: true });
    t.integer('country_id');
    t.text('city').notNullable().defaultTo('');
    t.text('address').notNullable().defaultTo('');
    t.text('post_code').notNullable().defaultTo('');
    t.text('avatar_url');
    t.bigInteger('balance_tenths').notNullable().defaultTo(0);
    t.text('role').notNullable().defaultTo('user');
    t.timestamp('disabled_at', { useTz: true });
    t.timestamps(true, true);
  });
  // Emails are unique whatever their letter case.
  await knex.raw('create unique index users_email_lower_unique on users (lower(email))');
  await knex.raw('alter table users add constraint users_balance_non_negative check (balance_tenths >= 0)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('users');
}

import type { Knex } from 'knex';

/**
 * The language the customer uses (a language code such as "de"), so every email reaches them in it:
 * set at sign-up and at each sign-in from the language the client asks in. Null for accounts made
 * before, which get the default language.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.string('lang', 16);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('lang');
  });
}

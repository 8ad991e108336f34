import type { Knex } from 'knex';

/**
 * Every change to a users row notifies `user_changed` with the user's id once the transaction commits (and
 * '*' after a TRUNCATE). Each API process listens and drops that user's cached session row, so a password
 * change, a disabled account or a new balance reaches every process whatever code made it (the API, the
 * admin CLI, a hand-written UPDATE). Postgres sends one notice per distinct id per transaction.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function users_notify_changed() returns trigger language plpgsql as $$
    begin
      if tg_op = 'TRUNCATE' then
        perform pg_notify('user_changed', '*');
      else
        perform pg_notify('user_changed', old.id::text);
      end if;
      return null;
    end
    $$`);
  await knex.raw(`create trigger users_notify_changed after update or delete on users
    for each row execute function users_notify_changed()`);
  await knex.raw(`create trigger users_notify_truncated after truncate on users
    for each statement execute function users_notify_changed()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists users_notify_truncated on users');
  await knex.raw('drop trigger if exists users_notify_changed on users');
  await knex.raw('drop function if exists users_notify_changed()');
}

import type { Knex } from 'knex';

/**
 * A checkout the customer abandoned ends as Expired (its session ran out unpaid) instead of staying
 * Pending or reading Cancelled, which is what the customer chose on the checkout page.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table deposits drop constraint deposits_status_check');
  await knex.raw(`alter table deposits add constraint deposits_status_check
    check (status in ('Pending', 'Processing', 'Success', 'Error', 'Cancelled', 'Expired'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`update deposits set status = 'Cancelled' where status = 'Expired'`);
  await knex.raw('alter table deposits drop constraint deposits_status_check');
  await knex.raw(`alter table deposits add constraint deposits_status_check
    check (status in ('Pending', 'Processing', 'Success', 'Error', 'Cancelled'))`);
}

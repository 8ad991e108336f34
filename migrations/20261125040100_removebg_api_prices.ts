import type { Knex } from 'knex';

/**
 * The remove.bg-compatible API's prices per output size, in tokens exact to 0.1 (stored as the
 * settings schema reads them; charged in tenths). A database that already has the row keeps it.
 */
const PRICES = { preview: 0.3, medium: 0.6, hd: 0.8, full: 1 };

export async function up(knex: Knex): Promise<void> {
  await knex('settings')
    .insert({ key: 'removebg_api_prices', value: JSON.stringify(PRICES) })
    .onConflict('key')
    .ignore();
}

export async function down(knex: Knex): Promise<void> {
  await knex('settings').where({ key: 'removebg_api_prices' }).delete();
}

import type { Knex } from 'knex';

/**
 * The first seeded packs cost more than the same tokens bought as a custom amount (Starter, 100 tokens,
 * 9.99 EUR against 9.00). Lowers the seeded prices on databases that still carry them untouched; a
 * pack an operator has changed (other price, tokens or title) is left as it is.
 */
const CHANGES = [
  { title: 'Starter', credits_tenths: 1000, from: 999, to: 850 },
  { title: 'Creator', credits_tenths: 5000, from: 3999, to: 3600 },
  { title: 'Studio', credits_tenths: 20000, from: 11999, to: 11900 },
];

export async function up(knex: Knex): Promise<void> {
  for (const c of CHANGES) {
    await knex('packs')
      .where({ title: c.title, credits_tenths: c.credits_tenths, price_cents: c.from })
      .update({ price_cents: c.to, updated_at: knex.fn.now() });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const c of CHANGES) {
    await knex('packs')
      .where({ title: c.title, credits_tenths: c.credits_tenths, price_cents: c.to })
      .update({ price_cents: c.from, updated_at: knex.fn.now() });
  }
}

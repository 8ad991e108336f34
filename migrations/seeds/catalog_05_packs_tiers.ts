import type { Knex } from 'knex';
import { DEFAULT_PRICE_TIERS } from '@imagestudio/contracts';
import { seedPacks, seedTiers } from '../../server/src/modules/catalog/pricing.repository';

/**
 * Token packs (EUR cents): a free pack and paid packs whose price per token falls (0.085, 0.072,
 * 0.0595 EUR), each cheaper than its tokens bought as a custom amount at the tiers (9.00, 40.00 and
 * 140.00 EUR). Seeded only into an empty table, like the tiers, so operator changes survive every start.
 */
const PACKS = [
  {
    title: 'Free',
    description: 'Try every tool: 10 tokens on us.',
    price_cents: 0,
    credits_tenths: 100,
    position: 1,
    hidden: false,
  },
  {
    title: 'Starter',
    description: '100 tokens for occasional edits.',
    price_cents: 850,
    credits_tenths: 1000,
    position: 2,
    hidden: false,
  },
  {
    title: 'Creator',
    description: '500 tokens for regular projects.',
    price_cents: 3600,
    credits_tenths: 5000,
    position: 3,
    hidden: false,
  },
  {
    title: 'Studio',
    description: '2000 tokens at our best price per token.',
    price_cents: 11900,
    credits_tenths: 20000,
    position: 4,
    hidden: false,
  },
];

export async function seed(knex: Knex): Promise<void> {
  await seedPacks(knex, PACKS);
  await seedTiers(
    knex,
    DEFAULT_PRICE_TIERS.map((t) => ({
      min_tenths: Math.round(t.min * 10),
      max_tenths: t.max === null ? null : Math.round(t.max * 10),
      price_eur: String(t.price),
    })),
  );
}

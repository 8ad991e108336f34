import type { Knex } from 'knex';
import { insertMissingCurrencies, upsertCountries } from '../../server/src/modules/catalog/catalog.repository';
import { isoCountries } from '../../server/src/modules/catalog/iso-countries';

/**
 * Currencies with reference rates against EUR (units per 1 EUR, mid-November 2026 ballpark; operators
 * set current ones with `npm run admin -- currency set`). Existing rows are kept as they are.
 */
const CURRENCIES = [
  { code: 'EUR', value: '1', symbol: '€', is_default: true, position: 1 },
  { code: 'USD', value: '1.08', symbol: '$', is_default: false, position: 2 },
  { code: 'GBP', value: '0.85', symbol: '£', is_default: false, position: 3 },
  { code: 'CHF', value: '0.94', symbol: 'CHF', is_default: false, position: 4 },
  { code: 'PLN', value: '4.32', symbol: 'zł', is_default: false, position: 5 },
  { code: 'JPY', value: '162.5', symbol: '¥', is_default: false, position: 6 },
  { code: 'KWD', value: '0.3315', symbol: 'KD', is_default: false, position: 7 },
];

export async function seed(knex: Knex): Promise<void> {
  await insertMissingCurrencies(knex, CURRENCIES);
  // Countries follow the i18n-iso-countries package: refreshed on every seed run.
  await upsertCountries(knex, isoCountries());
}

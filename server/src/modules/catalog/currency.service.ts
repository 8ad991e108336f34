import { validationError } from '../../lib/errors';
import { catalogCache, type CatalogDeps } from './catalog.cache';
import * as repo from './catalog.repository';
import type { CurrencyRow } from './catalog.repository';
import type { CurrencyView } from '@imagestudio/contracts';

/** A currency as GET /api/currencies sends it: value = units per 1 EUR; default 1 = default. */
/** The message of an unknown currency code on a pricing call. */
export const INVALID_CURRENCY = 'Invalid currency code';

function visibleCurrencies(deps: CatalogDeps): Promise<CurrencyRow[]> {
  return catalogCache(deps).get('currencies', async () =>
    (await repo.listCurrencies(deps.db)).filter((c) => !c.hidden),
  );
}

/** The currencies customers may choose, in display order. */
export async function listCurrencies(deps: CatalogDeps): Promise<CurrencyView[]> {
  return (await visibleCurrencies(deps)).map((c) => ({
    code: c.code,
    value: Number(c.value),
    symbol: c.symbol,
    default: c.is_default ? 1 : 0,
  }));
}

/**
 * The currency of a request's `currency` code (rate kept as exact text). Absent: the default currency.
 * Unknown: 422 "Invalid currency code" when `strict` (pricing calls), else the default currency.
 */
export async function resolveCurrency(
  deps: CatalogDeps,
  code: string | undefined,
  options: { strict: boolean },
): Promise<CurrencyRow> {
  const all = await visibleCurrencies(deps);
  const fallback = all.find((c) => c.is_default) ?? all[0];
  if (!fallback) throw new Error('no currencies are seeded');
  if (code === undefined) return fallback;
  const found = all.find((c) => c.code === code.toUpperCase());
  if (found) return found;
  if (options.strict) throw validationError({ currency: [INVALID_CURRENCY] });
  return fallback;
}

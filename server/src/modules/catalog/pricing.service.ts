import {
  convertFromBase,
  convertTiers,
  fromMinorUnits,
  packSavingMinor,
  quotePack,
  quoteTokens,
  tenthsForAmount,
  type ExactQuote,
  type PriceTier,
} from '@imagestudio/contracts';
import { notFound } from '../../lib/errors';
import { catalogCache, type CatalogDeps } from './catalog.cache';
import type { CurrencyRow } from './catalog.repository';
import { resolveCurrency } from './currency.service';
import * as repo from './pricing.repository';
import type { PackRow } from './pricing.repository';
import { getSettings } from './settings.service';
import type { PackView } from '@imagestudio/contracts';

/**
 * A pack as GET /api/packs sends it: price in the requested currency (0 = free), credits in tokens, and
 * what it saves against the same tokens bought as a custom amount (before VAT, 0 when nothing).
 */
function visiblePacks(deps: CatalogDeps): Promise<PackRow[]> {
  return catalogCache(deps).get('packs', async () => (await repo.listPacks(deps.db)).filter((p) => !p.hidden));
}

/** A pack's price in a currency's minor units (one rounding to the charge step, money.ts). */
export function packPriceMinor(pack: PackRow, currency: CurrencyRow): number {
  return convertFromBase(pack.price_cents, currency.value, currency.code);
}

/** The visible packs with prices in `currencyCode` (422 for an unknown code). */
export async function listPacks(deps: CatalogDeps, currencyCode: string | undefined): Promise<PackView[]> {
  const currency = await resolveCurrency(deps, currencyCode, { strict: true });
  const tiers = await tiersIn(deps, currency);
  return (await visiblePacks(deps)).map((p) => {
    const priceMinor = packPriceMinor(p, currency);
    const saving = packSavingMinor({ priceMinor, credits: p.credits_tenths / 10, tiers, currency: currency.code });
    return {
      id: p.id,
      title: p.title,
      description: p.description,
      price: fromMinorUnits(priceMinor, currency.code),
      credits: p.credits_tenths / 10,
      saving: fromMinorUnits(saving, currency.code),
    };
  });
}

/** The tier table converted into a currency (pricing.ts rule 1). */
export async function tiersIn(deps: CatalogDeps, currency: CurrencyRow): Promise<PriceTier[]> {
  const rows = await catalogCache(deps).get('tiers', () => repo.listTiers(deps.db));
  const base = rows.map((r) => ({
    min: r.min_tenths / 10,
    max: r.max_tenths === null ? null : r.max_tenths / 10,
    price: r.price_eur,
  }));
  return convertTiers(base, currency.value, currency.code);
}

/** GET /api/token-pricing: the tiers with the price per token in `currencyCode`. */
export async function tokenPricing(
  deps: CatalogDeps,
  currencyCode: string | undefined,
): Promise<{ currency: string; priceTiers: PriceTier[] }> {
  const currency = await resolveCurrency(deps, currencyCode, { strict: true });
  return { currency: currency.code, priceTiers: await tiersIn(deps, currency) };
}

/** The exact price of `tokens` in `currencyCode` with the settings' VAT: what checkout charges. */
export async function quoteTokensIn(
  deps: CatalogDeps,
  tokens: number,
  currencyCode: string | undefined,
): Promise<ExactQuote> {
  const currency = await resolveCurrency(deps, currencyCode, { strict: true });
  const settings = await getSettings(deps);
  return quoteTokens({
    tokens,
    tiers: await tiersIn(deps, currency),
    currency: currency.code,
    vatPercent: settings.vat_percent,
  });
}

/** A visible pack and its exact price with VAT in `currencyCode`; 404 for a hidden or unknown pack. */
export async function quotePackIn(
  deps: CatalogDeps,
  packId: number,
  currencyCode: string | undefined,
): Promise<{ pack: PackRow; quote: ExactQuote }> {
  const currency = await resolveCurrency(deps, currencyCode, { strict: true });
  const pack = (await visiblePacks(deps)).find((p) => p.id === packId);
  if (!pack) throw notFound('Not found.');
  const settings = await getSettings(deps);
  const quote = quotePack({
    priceMinor: packPriceMinor(pack, currency),
    credits: pack.credits_tenths / 10,
    currency: currency.code,
    vatPercent: settings.vat_percent,
  });
  return { pack, quote };
}

/** How many tenths of a token `amountMinor` (before VAT) buys in `currencyCode` at the tier prices. */
export async function tenthsForAmountIn(
  deps: CatalogDeps,
  amountMinor: number,
  currencyCode: string | undefined,
): Promise<number> {
  const currency = await resolveCurrency(deps, currencyCode, { strict: true });
  return tenthsForAmount({ amountMinor, tiers: await tiersIn(deps, currency), currency: currency.code });
}

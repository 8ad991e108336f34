import {
  BASE_CURRENCY,
  DEFAULT_PRICE_TIERS,
  convertFromBase,
  convertTiers,
  quotePack,
  quoteTokens,
  tenthsForAmount,
  type BaseTier,
  type Settings,
} from '@imagestudio/contracts';
import type { CheckoutCatalog, CheckoutPack } from '../../modules/payments/catalog-lookup';

export interface MemoryCatalogData {
  /** Currencies customers may choose, with their value against EUR (default: EUR only). */
  currencies?: Record<string, string>;
  /** Tiers in EUR per token (default: the seeded ones). */
  tiers?: readonly BaseTier[];
  /** Packs on sale (price in EUR cents). */
  packs?: CheckoutPack[];
  vatPercent?: number;
}

/**
 * The catalog as checkout sees it (CheckoutCatalog), on data held in memory and priced with the same pricing
 * functions of the contracts as the real one; `settings()` returns only what the tests set.
 */
export function memoryCheckoutCatalog(data: MemoryCatalogData = {}): CheckoutCatalog {
  const currencies: Record<string, string> = data.currencies ?? { [BASE_CURRENCY]: '1' };
  const vatPercent = data.vatPercent ?? 0;
  const rate = (code: string) => {
    const value = currencies[code.toUpperCase()];
    if (value === undefined) throw new Error(`currency ${code} is not in the fake catalog`);
    return value;
  };
  const tiersIn = (code: string) => convertTiers([...(data.tiers ?? DEFAULT_PRICE_TIERS)], rate(code), code);
  return {
    settings: async () => ({ vat_percent: vatPercent }) as unknown as Settings,
    currency: async (code) => {
      const value = currencies[code.toUpperCase()];
      return value === undefined ? null : { code: code.toUpperCase(), value };
    },
    country: async () => null,
    quotePack: async (id, code) => {
      const pack = data.packs?.find((p) => p.id === id);
      if (!pack) return null;
      const priceMinor = convertFromBase(pack.price_cents, rate(code), code);
      return { pack, quote: quotePack({ priceMinor, credits: pack.credits_tenths / 10, currency: code, vatPercent }) };
    },
    quoteTokens: async (tokens, code) => quoteTokens({ tokens, tiers: tiersIn(code), currency: code, vatPercent }),
    tenthsForAmount: async (amountMinor, code) =>
      tenthsForAmount({ amountMinor, tiers: tiersIn(code), currency: code }),
  };
}

import type { ExactQuote, Settings } from '@imagestudio/contracts';
import { AppError } from '../../lib/errors';
import {
  type CatalogDeps,
  listCountries,
  resolveCurrency,
  quotePackIn,
  quoteTokensIn,
  tenthsForAmountIn,
  getSettings,
} from '../catalog';

/** A pack as checkout needs it (price in EUR cents, credits in tenths). */
export interface CheckoutPack {
  id: number;
  title: string;
  price_cents: number;
  credits_tenths: number;
}

/**
 * The catalog data and prices checkout needs, all from the Catalog module's services (its cache, its
 * one pricing function with VAT), narrowed to what checkout asks.
 */
export interface CheckoutCatalog {
  settings(): Promise<Settings>;
  /** A currency customers may choose, or null. */
  currency(code: string): Promise<{ code: string; value: string } | null>;
  country(id: number): Promise<{ id: number; title: string } | null>;
  /** A pack on sale with its quote in `currency`, or null when hidden or unknown. */
  quotePack(id: number, currency: string): Promise<{ pack: CheckoutPack; quote: ExactQuote } | null>;
  quoteTokens(tokens: number, currency: string): Promise<ExactQuote>;
  /** Tenths of a token that `amountMinor` (before VAT) buys at the tier prices. */
  tenthsForAmount(amountMinor: number, currency: string): Promise<number>;
}

/** The catalog as checkout sees it, for one app. */
export function checkoutCatalog(ctx: CatalogDeps): CheckoutCatalog {
  return {
    settings: () => getSettings(ctx),
    async currency(code) {
      const found = await resolveCurrency(ctx, code, { strict: false });
      return found.code === code.toUpperCase() ? { code: found.code, value: found.value } : null;
    },
    async country(id) {
      const found = (await listCountries(ctx, undefined)).find((c) => c.id === id);
      return found ? { id: found.id, title: found.title } : null;
    },
    async quotePack(id, currency) {
      try {
        return await quotePackIn(ctx, id, currency);
      } catch (err) {
        if (err instanceof AppError && err.status === 404) return null;
        throw err;
      }
    },
    quoteTokens: (tokens, currency) => quoteTokensIn(ctx, tokens, currency),
    tenthsForAmount: (amountMinor, currency) => tenthsForAmountIn(ctx, amountMinor, currency),
  };
}

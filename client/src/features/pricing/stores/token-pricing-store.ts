import { makeAutoObservable, runInAction } from 'mobx';
import { endpoints } from '@imagestudio/contracts';
import {
  BASE_CURRENCY,
  DEFAULT_PRICE_TIERS,
  convertFromBase,
  convertTiers,
  formatPrice,
  formatPricePerToken,
  fromMinorUnits,
  minimumPurchaseTenths,
  quotePack,
  perTokenDecimals,
  quoteTokens,
  tenthsForAmount,
  toMinorUnits,
  type ExactQuote,
  type PriceTier,
} from '@imagestudio/contracts';
import type { PackView } from '@imagestudio/contracts';
import { numberLocale } from '../../../lib/format';
import type { RootStore } from '../../../stores/root-store';

/** The modal falls back to a minimum top-up of 1 when settings have none. */
const FALLBACK_MIN_TOP_UP = 1;

/**
 * Token prices in the chosen currency: the tier table from GET /api/token-pricing, or the local tier
 * table converted at the currency's rate while it loads or when the call fails. Every
 * price is computed with the shared pricing functions of contracts, the same ones checkout charges with.
 */
export class TokenPricingStore {
  /** Server tiers by currency code. */
  tiersByCurrency = new Map<string, PriceTier[]>();
  loading = false;
  /** True when the last lookup failed and the local table is in use. */
  usingFallback = false;

  constructor(private readonly root: RootStore) {
    makeAutoObservable<TokenPricingStore, 'root'>(this, { root: false });
  }

  get currencyCode(): string {
    return this.root.currencies.current.code;
  }

  get vatPercent(): number {
    const vat = Number(this.root.settings.settings?.vat_percent ?? 0);
    return Number.isFinite(vat) && vat > 0 ? vat : 0;
  }

  /** Tiers in the current currency; the converted local table until the server's arrive. */
  get tiers(): PriceTier[] {
    const currency = this.root.currencies.current;
    return (
      this.tiersByCurrency.get(currency.code) ?? convertTiers([...DEFAULT_PRICE_TIERS], currency.value, currency.code)
    );
  }

  /** Loads the tiers of the current currency once (the API client adds `currency`). */
  async load(): Promise<void> {
    const code = this.currencyCode;
    if (this.tiersByCurrency.has(code)) return;
    this.loading = true;
    try {
      const reply = await this.root.api.call(endpoints.catalog.tokenPricing, {}, { skipErrorHandling: true });
      const tiers = reply.payload.priceTiers;
      if (reply.status !== 'OK' || !Array.isArray(tiers) || tiers.length === 0) throw new Error('bad reply');
      runInAction(() => {
        this.tiersByCurrency.set(
          reply.payload.currency ?? code,
          tiers.map((t) => ({
            min: Number(t.min),
            max: t.max === null ? null : Number(t.max),
            price: Number(t.price),
          })),
        );
        this.usingFallback = false;
      });
    } catch {
      runInAction(() => (this.usingFallback = true));
    } finally {
      runInAction(() => (this.loading = false));
    }
  }

  /** The exact price of `tokens` (VAT added) and its charge, or null when no tier covers it. */
  quoteTokens(tokens: number): ExactQuote | null {
    try {
      return quoteTokens({ tokens, tiers: this.tiers, currency: this.currencyCode, vatPercent: this.vatPercent });
    } catch {
      return null;
    }
  }

  /** A pack's price (already in the current currency, from GET /api/packs) with VAT added. */
  quotePack(pack: PackView): ExactQuote | null {
    try {
      return quotePack({
        priceMinor: toMinorUnits(pack.price, this.currencyCode),
        credits: pack.credits,
        currency: this.currencyCode,
        vatPercent: this.vatPercent,
      });
    } catch {
      return null;
    }
  }

  /** What a money amount (major units, before VAT) buys at the tier prices, priced like checkout does. */
  quoteAmount(amount: string): ExactQuote | null {
    try {
      const tenths = tenthsForAmount({
        amountMinor: toMinorUnits(amount, this.currencyCode),
        tiers: this.tiers,
        currency: this.currencyCode,
      });
      return tenths > 0 ? this.quoteTokens(tenths / 10) : null;
    } catch {
      return null;
    }
  }

  /** min_top_up (EUR) times the currency's value, in the currency's minor units. */
  get minTopUpMinor(): number {
    const configured = Number(this.root.settings.settings?.min_top_up);
    const minTopUp = Number.isFinite(configured) && configured > 0 ? configured : FALLBACK_MIN_TOP_UP;
    const currency = this.root.currencies.current;
    return convertFromBase(toMinorUnits(minTopUp, BASE_CURRENCY), currency.value, currency.code);
  }

  /** The minimum top-up formatted in the current currency ("€1.00", "¥163", "KWD 0.332"). */
  get minTopUpText(): string {
    return formatPrice(
      fromMinorUnits(this.minTopUpMinor, this.currencyCode),
      this.currencyCode,
      this.root.currencies.current.symbol,
      this.root.languages.numberLocale,
    );
  }

  /** The fewest tokens that can be bought: their total (VAT included) reaches the minimum top-up. */
  get minimumPurchaseTokens(): number {
    return (
      minimumPurchaseTenths({
        minTotalMinor: this.minTopUpMinor,
        tiers: this.tiers,
        currency: this.currencyCode,
        vatPercent: this.vatPercent,
      }) / 10
    );
  }

  /** The purchase to offer someone `missing` tokens short: the missing tokens, or the minimum purchase if more. */
  purchaseOffer(missing: number): number {
    return Math.max(Math.ceil(Math.round(missing * 100) / 10) / 10, this.minimumPurchaseTokens);
  }

  /** Decimals of a per-token price in the current currency: enough to tell the tiers apart, none for yen. */
  get perTokenDecimals(): number {
    return perTokenDecimals(this.tiers, this.currencyCode);
  }

  /**
   * A per-token price of the current currency ("€0.09", "KWD 0.030", "¥15"); `atLeast` raises the
   * decimals of a currency that has fractions (the pricing page's opening price shows 3).
   */
  formatPerToken(price: number, atLeast = 0): string {
    return formatPricePerToken(
      price,
      this.currencyCode,
      this.shownDecimals(atLeast),
      this.root.currencies.current.symbol,
      numberLocale(),
    );
  }

  /** Whether `formatPerToken` rounds this price away (then unit x amount may not match the exact total). */
  perTokenIsRounded(price: number, atLeast = 0): boolean {
    const scale = 10 ** this.shownDecimals(atLeast);
    return Math.abs(Math.round(price * scale) / scale - price) > 1e-9;
  }

  private shownDecimals(atLeast: number): number {
    return this.perTokenDecimals === 0 ? 0 : Math.max(this.perTokenDecimals, atLeast);
  }

  /** Formats an amount of the current currency with its decimals. */
  format(amount: number): string {
    return this.root.currencies.format(amount);
  }
}

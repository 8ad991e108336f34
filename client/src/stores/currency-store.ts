import { makeAutoObservable, runInAction } from 'mobx';
import { endpoints } from '@imagestudio/contracts';
import { FALLBACK_CURRENCY, formatMoney, formatPrice } from '@imagestudio/contracts';
import { STORAGE_KEYS } from '../config/constants';
import type { ApiClient } from '../lib/api/api-client';
import type { Translate } from '../lib/i18n';
import { storage } from '../lib/storage';
import type { CurrencyView } from '@imagestudio/contracts';

const FALLBACK: CurrencyView = { ...FALLBACK_CURRENCY };

/** The choice: stored code, else the default-flagged currency, else the first, else EUR. */
export function chooseCurrency(currencies: CurrencyView[], storedCode: string | null): CurrencyView {
  return (
    currencies.find((c) => c.code === storedCode) ??
    currencies.find((c) => Number(c.default) === 1) ??
    currencies[0] ??
    FALLBACK
  );
}

/** The currency list and the user's choice, remembered in storage. */
export class CurrencyStore {
  currencies: CurrencyView[] = [FALLBACK];
  code: string = FALLBACK.code;
  error: string | null = null;

  constructor(
    private readonly api: ApiClient,
    private readonly t: Translate,
    /** The active language's number style, so prices read "1.234,50 €" in German. */
    private readonly locale: () => string = () => 'en-US',
  ) {
    makeAutoObservable<CurrencyStore, 'api' | 't' | 'locale'>(this, { api: false, t: false, locale: false });
  }

  get current(): CurrencyView {
    return this.currencies.find((c) => c.code === this.code) ?? FALLBACK;
  }

  /** Formats an amount in the current currency with its decimals; an empty amount reads "0.00" (an input's echo). */
  format(amount: number | null | undefined): string {
    return formatPrice(amount, this.current.code, this.current.symbol, this.locale());
  }

  /** An amount of money that is a line of a price (VAT, total): with its currency even when it is zero. */
  money(amount: number | null | undefined): string {
    return formatMoney(amount ?? 0, this.current.code, this.current.symbol, this.locale());
  }

  /** Loads the list; on failure only EUR is offered. */
  async load(): Promise<void> {
    try {
      const reply = await this.api.call(endpoints.catalog.currencies, {}, { skipCommonParams: true });
      if (reply.status !== 'OK' || !Array.isArray(reply.payload)) throw new Error('bad reply');
      const list = reply.payload.filter((c) => c && typeof c.code === 'string');
      runInAction(() => {
        this.currencies = list.length ? list : [FALLBACK];
        this.error = null;
        this.apply(chooseCurrency(this.currencies, storage.get(STORAGE_KEYS.currencyCode)));
      });
    } catch {
      runInAction(() => {
        this.currencies = [FALLBACK];
        this.error = this.t('shell.errors.loadCurrencies');
        this.apply(FALLBACK);
      });
    }
  }

  /** Selects a currency by code; an unknown code gives "Invalid currency code" and the fallback choice. */
  select(code: string): boolean {
    const found = this.currencies.find((c) => c.code === code);
    if (!found) {
      this.error = this.t('shell.errors.invalidCurrency');
      this.apply(chooseCurrency(this.currencies, null));
      return false;
    }
    this.error = null;
    this.apply(found);
    return true;
  }

  private apply(currency: CurrencyView): void {
    this.code = currency.code;
    storage.set(STORAGE_KEYS.currencyCode, currency.code);
    storage.set(STORAGE_KEYS.currencySymbol, currency.symbol);
  }
}

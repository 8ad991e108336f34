import { makeAutoObservable, runInAction } from 'mobx';
import { endpoints } from '@imagestudio/contracts';
import type { ApiClient } from '../lib/api/api-client';
import type { Translate } from '../lib/i18n';
import type { CountryView } from '@imagestudio/contracts';

/** Countries we serve: the phone input and the checkout offer only these. */
export class CountriesStore {
  countries: CountryView[] = [];
  loaded = false;
  error: string | null = null;
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly api: ApiClient,
    private readonly t: Translate,
  ) {
    makeAutoObservable<CountriesStore, 'api' | 't' | 'inFlight'>(this, { api: false, t: false, inFlight: false });
  }

  /** Upper-case ISO codes of the supported countries. */
  get isoCodes(): Set<string> {
    return new Set(this.countries.map((c) => c.iso.toUpperCase()));
  }

  /** Loads once; callers that need the list while it loads share the same request. */
  ensureLoaded(): Promise<void> {
    if (this.loaded) return Promise.resolve();
    this.inFlight ??= this.load().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** Loads the list again (country names are in the active language: called when it changes). */
  reload(): Promise<void> {
    return this.loaded ? this.load() : Promise.resolve();
  }

  async load(): Promise<void> {
    try {
      const reply = await this.api.call(endpoints.catalog.countries);
      if (reply.status !== 'OK' || !Array.isArray(reply.payload)) throw new Error('bad reply');
      runInAction(() => {
        this.countries = reply.payload.filter((c) => c && typeof c.iso === 'string');
        this.loaded = true;
        this.error = null;
      });
    } catch {
      runInAction(() => {
        this.error = this.t('shell.errors.loadCountries');
      });
    }
  }
}

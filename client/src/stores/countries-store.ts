import { makeAutoObservable, runInAction } from 'mobx';
import { endpoints } from '@imagestudio/contracts';
import type { ApiClient } from '../lib/api/api-client';
import type { Translate } from '../lib/i18n';
import type { CountryView } from '@imagestudio/contracts';

/** A country's name in `locale` from the browser's own list, or null when it has none for the code. */
function regionName(names: Intl.DisplayNames | null, iso: string): string | null {
  try {
    const name = names?.of(iso.toUpperCase());
    return name && name !== iso.toUpperCase() ? name : null;
  } catch {
    return null;
  }
}

/** Countries we serve: the phone input and the checkout offer only these. */
export class CountriesStore {
  /** The list as the server sent it (names in the catalogue's language, often English only). */
  private list: CountryView[] = [];
  loaded = false;
  error: string | null = null;
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly api: ApiClient,
    private readonly t: Translate,
    /** The active language's locale; names follow it when it changes. */
    private readonly locale: () => string = () => 'en-US',
  ) {
    makeAutoObservable<CountriesStore, 'api' | 't' | 'inFlight' | 'locale'>(this, {
      api: false,
      t: false,
      inFlight: false,
      locale: false,
    });
  }

  /**
   * The countries, each named in the reader's language by the browser (Intl.DisplayNames: "Deutschland",
   * "Vereinigte Staaten"); the server's name where the browser has none.
   */
  get countries(): CountryView[] {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([this.locale()], { type: 'region' });
    } catch {
      names = null;
    }
    return this.list.map((c) => ({ ...c, title: regionName(names, c.iso) ?? c.title }));
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
        this.list = reply.payload.filter((c) => c && typeof c.iso === 'string');
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

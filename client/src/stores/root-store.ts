import { makeAutoObservable, reaction, runInAction } from 'mobx';
import { endpoints } from '@imagestudio/contracts';
import { STORAGE_KEYS, TIMINGS } from '../config/constants';
import { env } from '../config/env';
import { ApiClient, type ApiClientOptions } from '../lib/api/api-client';
import type { MessageKey, MessageVars } from '../lib/i18n';
import { handleApiError } from './api-error-catalogue';
import { AuthStore } from '../features/auth/stores/auth-store';
import { CountriesStore } from './countries-store';
import { CurrencyStore } from './currency-store';
import { LanguageStore } from './language-store';
import { storeFactories, type LazyStores } from './lazy-stores';
import { windowNavigator, type AppNavigator } from './navigator';
import { storage } from '../lib/storage';
import { PacksStore } from '../features/pricing/stores/packs-store';
import { PagesStore } from '../features/static-pages/stores/pages-store';
import { ProfileStore } from '../features/account/stores/profile-store';
import { SettingsStore } from './settings-store';
import { ToolsStore } from '../features/tools/stores/tools-store';
import { UiStore } from './ui-store';

/**
 * GETs several components ask for as a page opens (the header, the page, a tool's gate all want the tools'
 * status): a reply answers the same call again for REUSE_MS, so each goes out once per page load. Shorter than
 * the tool pages' status refresh (10 s), so that still asks the server.
 */
const REUSABLE = [
  endpoints.tools.status,
  endpoints.catalog.settings,
  endpoints.catalog.languages,
  endpoints.catalog.currencies,
  endpoints.catalog.localizations,
  endpoints.catalog.staticPages,
  endpoints.catalog.socialLinks,
  endpoints.catalog.packs,
].map((endpoint) => endpoint.path);
const REUSE_MS = 5000;

export interface RootStoreOptions {
  api?: Partial<ApiClientOptions>;
  navigator?: AppNavigator;
  toastMs?: number;
}

/**
 * Every domain store plus the UI store, passed down by React context. The stores every page needs are created
 * here; those only signed-in or paying visitors use (lazy-stores.ts) are created on first read, from code that
 * arrives with the pages that read them.
 */
export class RootStore {
  readonly api: ApiClient;
  readonly ui: UiStore;
  readonly languages: LanguageStore;
  readonly currencies: CurrencyStore;
  readonly auth: AuthStore;
  readonly profile: ProfileStore;
  readonly settings: SettingsStore;
  readonly pages: PagesStore;
  readonly countries: CountriesStore;
  readonly packs: PacksStore;
  readonly tools: ToolsStore;
  private readonly created: Partial<LazyStores> = {};
  navigator: AppNavigator;
  initState: 'idle' | 'loading' | 'ready' | 'failed' = 'idle';
  initError: string | null = null;
  /** Set once the currency list has loaded and chosen (until then calls carry the stored currency). */
  private currenciesChosen = false;
  private started: Promise<void> = Promise.resolve();

  constructor(options: RootStoreOptions = {}) {
    this.navigator = options.navigator ?? windowNavigator();
    this.api = new ApiClient(
      { commonParams: () => this.commonParams(), onError: (error) => handleApiError(this, error) },
      {
        baseURL: env.apiBaseUrl,
        timeoutMs: TIMINGS.apiTimeoutMs,
        reusable: REUSABLE,
        reuseMs: REUSE_MS,
        ...options.api,
      },
    );
    this.ui = new UiStore(options.toastMs);
    this.languages = new LanguageStore(this.api);
    this.currencies = new CurrencyStore(this.api, this.t, () => this.languages.numberLocale);
    this.profile = new ProfileStore(this);
    this.auth = new AuthStore(this);
    this.settings = new SettingsStore(this.api, this.t);
    this.pages = new PagesStore(this.api, this.t);
    this.countries = new CountriesStore(this.api, this.t, () => this.languages.numberLocale);
    this.packs = new PacksStore(this.api, this.t);
    this.tools = new ToolsStore(this);
    makeAutoObservable<RootStore, 'created' | 'lazy' | 'started'>(this, {
      api: false,
      ui: false,
      languages: false,
      currencies: false,
      auth: false,
      profile: false,
      settings: false,
      pages: false,
      countries: false,
      packs: false,
      navigator: false,
      tools: false,
      created: false,
      lazy: false,
      started: false,
      tokenPricing: false,
      topUp: false,
      checkout: false,
      paymentHistory: false,
      tokenActivity: false,
      apiKeys: false,
      account: false,
      jobLists: false,
    });
    // The profile follows the session: fetched on sign-in, gone on sign-out.
    reaction(
      () => this.auth.isAuthenticated,
      (signedIn) => (signedIn ? void this.profile.fetch() : this.profile.clear()),
    );
    this.watchPageLanguage();
    // Prices depend on the currency and texts on the language: reload the packs when either changes.
    reaction(
      () => [this.currencies.code, this.languages.activeId],
      () => {
        if (this.initState === 'ready') void this.packs.load();
      },
    );
  }

  /**
   * The footer's page titles and the country names are in the reader's language: fetched again when the
   * language changes (the country list only where it was loaded).
   */
  private watchPageLanguage(): void {
    reaction(
      () => this.languages.activeId,
      () => {
        if (this.initState !== 'ready') return;
        void this.pages.load();
        void this.countries.reload();
      },
    );
  }

  get tokenPricing() {
    return this.lazy('tokenPricing');
  }
  get topUp() {
    return this.lazy('topUp');
  }
  get checkout() {
    return this.lazy('checkout');
  }
  get paymentHistory() {
    return this.lazy('paymentHistory');
  }
  get tokenActivity() {
    return this.lazy('tokenActivity');
  }
  get apiKeys() {
    return this.lazy('apiKeys');
  }
  get account() {
    return this.lazy('account');
  }
  get jobLists() {
    return this.lazy('jobLists');
  }

  /** The store named `key`, created the first time it is read and the same one ever after. */
  private lazy<K extends keyof LazyStores>(key: K): LazyStores[K] {
    const made = this.created[key] ?? (storeFactories()[key] as (root: RootStore) => LazyStores[K])(this);
    this.created[key] = made;
    return made;
  }

  /** Translation shortcut for stores and components. */
  t = (key: MessageKey, vars?: MessageVars): string => this.languages.t(key, vars);

  setNavigator(navigator: AppNavigator): void {
    this.navigator = navigator;
  }

  /**
   * currency and lang_id of every call: the lists' choice once loaded; before that the visitor's stored one (or
   * none, the server's default), so the start-up calls need not wait for the lists.
   */
  private commonParams(): Record<string, string | number | undefined> {
    const loaded = this.initState === 'ready' || this.languages.languages.length > 0;
    const storedLanguage = Number(storage.get(STORAGE_KEYS.languageId)) || undefined;
    return {
      currency: this.currenciesChosen
        ? this.currencies.code
        : (storage.get(STORAGE_KEYS.currencyCode) ?? this.currencies.code),
      lang_id: loaded ? (this.languages.activeId ?? undefined) : storedLanguage,
    };
  }

  /**
   * Loads what every page needs, every call at once (main.tsx starts this before the first render). The
   * catalogue calls go out with the stored currency and language; the few visitors for whom the lists choose
   * others (a first visit in another language, a currency no longer offered) get pages and packs again.
   */
  async init(): Promise<void> {
    if (this.initState !== 'idle') return this.started;
    this.initState = 'loading';
    this.started = this.start();
    return this.started;
  }

  private async start(): Promise<void> {
    try {
      const assumed = this.commonParams();
      const authCheck = this.auth.checkAuth();
      const lists = Promise.all([this.languages.load(), this.currencies.load()]).then(() =>
        runInAction(() => (this.currenciesChosen = true)),
      );
      const catalog = Promise.all([this.settings.load(), this.pages.load(), this.packs.load()]);
      await Promise.all([lists, catalog, authCheck]);
      const chosen = this.commonParams();
      const defaultLanguage = this.languages.languages.find((lang) => Number(lang.default) === 1)?.id;
      const sameLanguage = (assumed.lang_id ?? defaultLanguage) === (chosen.lang_id ?? defaultLanguage);
      if (!sameLanguage) await Promise.all([this.pages.load(), this.packs.load()]);
      else if (assumed.currency !== chosen.currency) await this.packs.load();
      if (this.auth.isAuthenticated && !this.profile.profile && !this.profile.loading) await this.profile.fetch();
      runInAction(() => (this.initState = 'ready'));
    } catch (err) {
      runInAction(() => {
        this.initState = 'failed';
        this.initError = err instanceof Error ? err.message : String(err);
      });
    }
  }
}

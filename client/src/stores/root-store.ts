import { makeAutoObservable, reaction, runInAction } from 'mobx';
import { TIMINGS } from '../config/constants';
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
import { PacksStore } from '../features/pricing/stores/packs-store';
import { PagesStore } from '../features/static-pages/stores/pages-store';
import { ProfileStore } from '../features/account/stores/profile-store';
import { SettingsStore } from './settings-store';
import { ToolsStore } from '../features/tools/stores/tools-store';
import { UiStore } from './ui-store';

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

  constructor(options: RootStoreOptions = {}) {
    this.navigator = options.navigator ?? windowNavigator();
    this.api = new ApiClient(
      {
        commonParams: () => ({ currency: this.currencies.code, lang_id: this.languages.activeId ?? undefined }),
        onError: (error) => handleApiError(this, error),
      },
      { baseURL: env.apiBaseUrl, timeoutMs: TIMINGS.apiTimeoutMs, ...options.api },
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
    makeAutoObservable<RootStore, 'created' | 'lazy'>(this, {
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

  /** Loads what every page needs; each store records its own failure, so only the unexpected fails init. */
  async init(): Promise<void> {
    this.initState = 'loading';
    try {
      const authCheck = this.auth.checkAuth();
      // Currency and language first: every later call carries them.
      await Promise.all([this.languages.load(), this.currencies.load()]);
      await Promise.all([this.settings.load(), this.pages.load(), this.packs.load(), authCheck]);
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

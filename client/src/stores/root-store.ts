import { makeAutoObservable, reaction, runInAction } from 'mobx';
import { TIMINGS } from '../config/constants';
import { env } from '../config/env';
import { ApiClient, type ApiClientOptions } from '../lib/api/api-client';
import type { MessageKey, MessageVars } from '../lib/i18n';
import { handleApiError } from './api-error-catalogue';
import { JobListsStore } from './job-lists-store';
import { AccountStore } from './account-store';
import { AuthStore } from './auth-store';
import { CheckoutStore } from './checkout-store';
import { CountriesStore } from './countries-store';
import { CurrencyStore } from './currency-store';
import { LanguageStore } from './language-store';
import { windowNavigator, type AppNavigator } from './navigator';
import { PacksStore } from './packs-store';
import { PagesStore } from './pages-store';
import { PaymentHistoryStore } from './payment-history-store';
import { TokenActivityStore } from './token-activity-store';
import { ApiKeysStore } from './api-keys-store';
import { ProfileStore } from './profile-store';
import { SettingsStore } from './settings-store';
import { TokenPricingStore } from './token-pricing-store';
import { TopUpStore } from './top-up-store';
import { ToolsStore } from './tools-store';
import { UiStore } from './ui-store';

export interface RootStoreOptions {
  api?: Partial<ApiClientOptions>;
  navigator?: AppNavigator;
  toastMs?: number;
}

/** Every domain store plus the UI store, created once and passed down by React context. */
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
  readonly tokenPricing: TokenPricingStore;
  readonly topUp: TopUpStore;
  readonly checkout: CheckoutStore;
  readonly paymentHistory: PaymentHistoryStore;
  readonly tokenActivity: TokenActivityStore;
  readonly apiKeys: ApiKeysStore;
  readonly account: AccountStore;
  readonly tools: ToolsStore;
  readonly jobLists: JobListsStore;
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
    this.countries = new CountriesStore(this.api, this.t);
    this.packs = new PacksStore(this.api, this.t);
    this.tokenPricing = new TokenPricingStore(this);
    this.topUp = new TopUpStore(this);
    this.checkout = new CheckoutStore(this);
    this.paymentHistory = new PaymentHistoryStore(this);
    this.tokenActivity = new TokenActivityStore(this);
    this.apiKeys = new ApiKeysStore(this);
    this.account = new AccountStore(this);
    this.tools = new ToolsStore(this);
    this.jobLists = new JobListsStore(this);
    makeAutoObservable<RootStore>(this, {
      api: false, ui: false, languages: false, currencies: false, auth: false, profile: false,
      settings: false, pages: false, countries: false, packs: false, navigator: false,
      tokenPricing: false, topUp: false, checkout: false, paymentHistory: false, tokenActivity: false, apiKeys: false, account: false,
      tools: false, jobLists: false,
    });
    // The profile follows the session: fetched on sign-in, gone on sign-out.
    reaction(
      () => this.auth.isAuthenticated,
      (signedIn) => (signedIn ? void this.profile.fetch() : this.profile.clear()),
    );
    // Prices depend on the currency and texts on the language: reload the packs when either changes.
    reaction(
      () => [this.currencies.code, this.languages.activeId],
      () => {
        if (this.initState === 'ready') void this.packs.load();
      },
    );
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

import { makeAutoObservable, reaction, runInAction } from 'mobx';
import type { LedgerEntryView, LedgerPage } from '@imagestudio/contracts';
import type { RootStore } from './root-store';

/** The account's Token activity tab: one page of the user's ledger, newest first. */
export class TokenActivityStore {
  items: LedgerEntryView[] = [];
  page = 1;
  lastPage = 1;
  loading = false;
  loaded = false;
  error: string | null = null;

  constructor(private readonly root: RootStore) {
    makeAutoObservable<TokenActivityStore, 'root'>(this, { root: false });
    // One user's activity must never show to the next one signing in on the same browser.
    reaction(
      () => this.root.auth.isAuthenticated,
      (signedIn) => {
        if (!signedIn) this.clear();
      },
    );
  }

  clear(): void {
    this.items = [];
    this.page = 1;
    this.lastPage = 1;
    this.loaded = false;
    this.error = null;
  }

  async load(page = 1): Promise<void> {
    if (!this.root.auth.isAuthenticated) return;
    this.loading = true;
    try {
      const reply = await this.root.api.get<LedgerPage>('/user/ledger', { params: { page } });
      const data = reply.payload;
      if (!data || !Array.isArray(data.items)) throw new Error('bad reply');
      runInAction(() => {
        this.items = data.items;
        this.page = data.page;
        this.lastPage = Math.max(1, data.last_page);
        this.error = null;
        this.loaded = true;
      });
    } catch {
      runInAction(() => (this.error = this.root.t('client-developer.activity.loadFailed')));
    } finally {
      runInAction(() => (this.loading = false));
    }
  }

  /** The CSV export (a plain link: the session cookie authorizes the download). */
  get csvUrl(): string {
    return `${this.root.api.baseURL}/user/ledger.csv`;
  }

  receiptUrl(depositId: string): string {
    return `${this.root.api.baseURL}/user/payment-history/${encodeURIComponent(depositId)}/receipt`;
  }
}

import { makeAutoObservable, reaction, runInAction } from 'mobx';
import type { PaymentHistoryItem, PaymentHistoryPage } from '@imagestudio/contracts';
import type { RootStore } from './root-store';

/** The account's Payment History tab: one page of the user's deposits, newest first. */
export class PaymentHistoryStore {
  items: PaymentHistoryItem[] = [];
  page = 1;
  lastPage = 1;
  total = 0;
  loading = false;
  loaded = false;
  error: string | null = null;

  constructor(private readonly root: RootStore) {
    makeAutoObservable<PaymentHistoryStore, 'root'>(this, { root: false });
    // One user's payments must never show to the next one signing in on the same browser.
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
    this.total = 0;
    this.loaded = false;
    this.error = null;
  }

  /** Loads page `page` (1-based); does nothing for a guest. */
  async load(page = 1): Promise<void> {
    if (!this.root.auth.isAuthenticated) return;
    this.loading = true;
    try {
      const reply = await this.root.api.get<PaymentHistoryPage>('/user/payment-history', { params: { page } });
      const data = reply.payload;
      if (reply.status !== 'OK' || !data || !Array.isArray(data.items)) throw new Error('bad reply');
      runInAction(() => {
        this.items = data.items;
        this.page = Number(data.page) || page;
        this.lastPage = Math.max(1, Number(data.last_page) || 1);
        this.total = Number(data.total) || data.items.length;
        this.error = null;
        this.loaded = true;
      });
    } catch {
      runInAction(() => (this.error = this.root.t('client-payments.account.history.loadFailed')));
    } finally {
      runInAction(() => (this.loading = false));
    }
  }

  /** Address of a payment's HTML receipt (opened in a new tab; the session cookie authorizes it). */
  receiptUrl(id: string): string {
    return `${this.root.api.baseURL}/user/payment-history/${encodeURIComponent(id)}/receipt`;
  }
}

import { action, makeObservable, observable, reaction, runInAction } from 'mobx';
import type { ApiOk } from '@imagestudio/contracts';
import type { MessageKey } from '../lib/i18n';
import type { RootStore } from './root-store';

/** What a paged list route answers (the envelope's payload). */
export interface ListPage<Item> {
  items: Item[];
  page: number;
  last_page: number;
  total?: number;
}

/**
 * One page at a time of a signed-in user's list (newest first, as the API pages it). Cleared on sign-out, so
 * one user's rows never show to the next one signing in on the same browser. A list with more to it (filters,
 * rows that need something fetched beside them, its own failure text) extends this and overrides the hooks.
 */
export class PagedListStore<Item> {
  items: Item[] = [];
  page = 1;
  lastPage = 1;
  total = 0;
  loading = false;
  loaded = false;
  error: string | null = null;

  constructor(
    protected readonly root: RootStore,
    /** Asks the list's route for one page (a typed `api.call`). */
    private readonly fetchPage: (page: number) => Promise<ApiOk<ListPage<Item>>>,
    protected readonly failedMessage: MessageKey,
  ) {
    makeObservable(this, {
      items: observable,
      page: observable,
      lastPage: observable,
      total: observable,
      loading: observable,
      loaded: observable,
      error: observable,
      clear: action,
      load: action,
    });
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
      const reply = await this.fetchPage(page);
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
      await this.afterPage(data.items);
    } catch (err) {
      runInAction(() => (this.error = this.failureText(err)));
    } finally {
      runInAction(() => (this.loading = false));
    }
  }

  /** Runs once a page has arrived, while the list still shows as loading; nothing by default. */
  protected async afterPage(_items: Item[]): Promise<void> {}

  /** What the list says when a page could not be loaded. */
  protected failureText(_err: unknown): string {
    return this.root.t(this.failedMessage);
  }
}

import { makeObservable, observable, action, runInAction } from 'mobx';
import type { AdminPage, Endpoint, RouteSpec } from '@imagestudio/contracts';
import type { MessageKey } from '../../lib/i18n';
import type { RootStore } from '../root-store';

/**
 * One page of a console list (jobs, users, deposits, audit) with its search filters: the filters are what the
 * form shows; `search()` sends them and goes back to page 1. Empty filters are left out of the query.
 */
export class AdminListStore<Item, Filters extends Record<string, string>> {
  filters: Filters;
  items: Item[] = [];
  page = 1;
  lastPage = 1;
  total = 0;
  loading = false;
  loaded = false;
  error: string | null = null;

  constructor(
    private readonly root: RootStore,
    private readonly endpoint: Endpoint<RouteSpec & { method: 'get' }>,
    private readonly emptyFilters: Filters,
    private readonly failedMessage: MessageKey,
  ) {
    this.filters = { ...emptyFilters };
    makeObservable<AdminListStore<Item, Filters>, never>(this, {
      filters: observable,
      items: observable,
      page: observable,
      lastPage: observable,
      total: observable,
      loading: observable,
      loaded: observable,
      error: observable,
      setFilter: action,
      resetFilters: action,
      load: action,
      clear: action,
    });
  }

  setFilter<K extends keyof Filters>(key: K, value: Filters[K]): void {
    this.filters = { ...this.filters, [key]: value };
  }

  resetFilters(): void {
    this.filters = { ...this.emptyFilters };
  }

  clear(): void {
    this.resetFilters();
    this.items = [];
    this.page = 1;
    this.lastPage = 1;
    this.total = 0;
    this.loaded = false;
    this.error = null;
  }

  /** The query of the current filters (blank ones left out), for `page`. */
  query(page: number): Record<string, string | number> {
    const params: Record<string, string | number> = { page };
    for (const [key, value] of Object.entries(this.filters)) if (value.trim() !== '') params[key] = value.trim();
    return params;
  }

  search(): Promise<void> {
    return this.load(1);
  }

  async load(page = this.page): Promise<void> {
    this.loading = true;
    try {
      const reply = await this.root.api.call(this.endpoint, { query: this.query(page) });
      // The four lists share this store; each route's reply is a page of its own row type.
      const data = reply.payload as AdminPage<Item> | undefined;
      if (!data || !Array.isArray(data.items)) throw new Error('bad reply');
      runInAction(() => {
        this.items = data.items;
        this.page = data.page;
        this.lastPage = Math.max(1, data.last_page);
        this.total = data.total;
        this.loaded = true;
        this.error = null;
      });
    } catch {
      runInAction(() => (this.error = this.root.t(this.failedMessage)));
    } finally {
      runInAction(() => (this.loading = false));
    }
  }
}

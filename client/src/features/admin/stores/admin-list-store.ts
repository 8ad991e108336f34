import { action, makeObservable, observable, override } from 'mobx';
import type { AdminPage, ApiOk, Endpoint, RouteSpec } from '@imagestudio/contracts';
import type { MessageKey } from '../../../lib/i18n';
import { PagedListStore } from '../../../stores/paged-list-store';
import type { RootStore } from '../../../stores/root-store';

/**
 * One page of a console list (jobs, users, deposits, audit) with its search filters: the paging of every other
 * list, plus the filters the form shows; `search()` sends them and goes back to page 1. Empty filters are left
 * out of the query.
 */
export class AdminListStore<Item, Filters extends Record<string, string>> extends PagedListStore<Item> {
  /** What the form shows; the page fetch reads it at the moment it asks. */
  private readonly form: { filters: Filters };

  constructor(
    root: RootStore,
    endpoint: Endpoint<RouteSpec & { method: 'get' }>,
    private readonly emptyFilters: Filters,
    failedMessage: MessageKey,
  ) {
    const form = observable({ filters: { ...emptyFilters } });
    super(
      root,
      // The four lists share this store; each route's reply is a page of its own row type.
      (page) =>
        root.api.call(endpoint, { query: filterQuery(form.filters, page) }) as unknown as Promise<
          ApiOk<AdminPage<Item>>
        >,
      failedMessage,
    );
    this.form = form;
    makeObservable<AdminListStore<Item, Filters>, never>(this, {
      setFilter: action,
      resetFilters: action,
      clear: override,
    });
  }

  get filters(): Filters {
    return this.form.filters;
  }

  setFilter<K extends keyof Filters>(key: K, value: Filters[K]): void {
    this.form.filters = { ...this.form.filters, [key]: value };
  }

  resetFilters(): void {
    this.form.filters = { ...this.emptyFilters };
  }

  override clear(): void {
    this.resetFilters();
    super.clear();
  }

  search(): Promise<void> {
    return this.load(1);
  }
}

/** The query of the filters (blank ones left out), for `page`. */
function filterQuery(filters: Record<string, string>, page: number): Record<string, string | number> {
  const params: Record<string, string | number> = { page };
  for (const [key, value] of Object.entries(filters)) if (value.trim() !== '') params[key] = value.trim();
  return params;
}

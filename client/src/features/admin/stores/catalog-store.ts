import { makeAutoObservable, runInAction } from 'mobx';
import type { AdminCatalogView, ApiOk } from '@imagestudio/contracts';
import type { RootStore } from '../../../stores/root-store';
import { DONE, failed, type ChangeOutcome } from './changes';
import type { ReauthStore } from './reauth';
import { endpoints } from '@imagestudio/contracts';

/** Catalog changes answer their own errors (the form shows them), so the global handler stays out. */
const SKIP = { skipErrorHandling: true } as const;

export interface PackFields {
  title: string;
  price: string;
  credits: string;
  description: string;
}

/**
 * The console's Catalog page: settings, packs, price tiers, currencies and static pages, changed through
 * /admin/catalog (the server checks each change with the CLI's own rules). Every change answers the whole
 * catalog with the CLI's warnings, which replace what is shown.
 */
export class CatalogStore {
  catalog: AdminCatalogView | null = null;
  error: string | null = null;
  busy = false;

  constructor(
    private readonly root: RootStore,
    private readonly reauth: ReauthStore,
  ) {
    makeAutoObservable<CatalogStore, 'root' | 'reauth'>(this, { root: false, reauth: false });
  }

  get warnings(): string[] {
    return this.catalog?.warnings ?? [];
  }

  async load(): Promise<void> {
    try {
      const reply = await this.root.api.call(endpoints.admin.catalog);
      runInAction(() => {
        this.catalog = reply.payload;
        this.error = null;
      });
    } catch {
      runInAction(() => (this.error = this.root.t('client-admin.catalog.loadFailed')));
    }
  }

  private async change(send: () => Promise<ApiOk<AdminCatalogView>>): Promise<ChangeOutcome> {
    this.busy = true;
    try {
      const reply = await this.reauth.run(send);
      runInAction(() => (this.catalog = reply.payload));
      return DONE;
    } catch (err) {
      return failed(err, this.root.t('client-admin.changeFailed'));
    } finally {
      runInAction(() => (this.busy = false));
    }
  }

  /** A setting's value as typed: JSON when it parses (numbers, lists, objects, true/false), else text, as the CLI reads it. */
  setSetting(key: string, raw: string): Promise<ChangeOutcome> {
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // plain text
    }
    return this.change(() =>
      this.root.api.call(endpoints.admin.catalogSetting, { params: { key }, body: { value } }, SKIP),
    );
  }

  addPack(fields: PackFields): Promise<ChangeOutcome> {
    return this.change(() => this.root.api.call(endpoints.admin.catalogAddPack, { body: fields }, SKIP));
  }

  editPack(id: number, fields: Partial<PackFields> & { hidden?: boolean }): Promise<ChangeOutcome> {
    return this.change(() =>
      this.root.api.call(endpoints.admin.catalogEditPack, { params: { id: String(id) }, body: fields }, SKIP),
    );
  }

  /** Moves a pack one place up (-1) or down (+1). */
  movePack(id: number, by: -1 | 1): Promise<ChangeOutcome> {
    const ids = (this.catalog?.packs ?? []).map((p) => p.id);
    const at = ids.indexOf(id);
    const to = at + by;
    if (at < 0 || to < 0 || to >= ids.length) return Promise.resolve(DONE);
    [ids[at], ids[to]] = [ids[to]!, ids[at]!];
    return this.change(() => this.root.api.call(endpoints.admin.catalogOrderPacks, { body: { ids } }, SKIP));
  }

  /** Tiers by where each starts (tokens) and its EUR price per token; the server works out where each ends. */
  setTiers(tiers: Array<{ min: string; price: string }>): Promise<ChangeOutcome> {
    const body = { tiers: tiers.map((t) => ({ min: Number(t.min), price: t.price.trim() })) };
    return this.change(() => this.root.api.call(endpoints.admin.catalogTiers, { body }, SKIP));
  }

  setCurrency(code: string, rate: string, symbol: string): Promise<ChangeOutcome> {
    const body = symbol.trim() ? { rate: rate.trim(), symbol: symbol.trim() } : { rate: rate.trim() };
    return this.change(() =>
      this.root.api.call(endpoints.admin.catalogCurrency, { params: { code: code.trim() }, body }, SKIP),
    );
  }

  setDefaultCurrency(code: string): Promise<ChangeOutcome> {
    return this.change(() => this.root.api.call(endpoints.admin.catalogDefaultCurrency, { params: { code } }, SKIP));
  }

  setCurrencyHidden(code: string, hidden: boolean): Promise<ChangeOutcome> {
    const { catalogHideCurrency: hide, catalogUnhideCurrency: unhide } = endpoints.admin;
    return this.change(() =>
      hidden
        ? this.root.api.call(hide, { params: { code } }, SKIP)
        : this.root.api.call(unhide, { params: { code } }, SKIP),
    );
  }

  savePage(slug: string, title: string, html: string): Promise<ChangeOutcome> {
    return this.change(() =>
      this.root.api.call(endpoints.admin.catalogPage, { params: { slug: slug.trim() }, body: { title, html } }, SKIP),
    );
  }
}

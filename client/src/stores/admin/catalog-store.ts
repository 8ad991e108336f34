import { makeAutoObservable, runInAction } from 'mobx';
import type { AdminCatalogView, ApiOk } from '@imagestudio/contracts';
import type { RootStore } from '../root-store';
import { DONE, failed, type ChangeOutcome } from './changes';
import type { ReauthStore } from './reauth';

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
      const reply = await this.root.api.get<AdminCatalogView>('/admin/catalog');
      runInAction(() => {
        this.catalog = reply.payload ?? null;
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
      runInAction(() => (this.catalog = reply.payload ?? this.catalog));
      return DONE;
    } catch (err) {
      return failed(err, this.root.t('client-admin.changeFailed'));
    } finally {
      runInAction(() => (this.busy = false));
    }
  }

  private send(method: 'post' | 'put' | 'patch', url: string, body: object = {}) {
    return () => this.root.api[method]<AdminCatalogView>(`/admin/catalog${url}`, body, { skipErrorHandling: true });
  }

  /** A setting's value as typed: JSON when it parses (numbers, lists, objects, true/false), else text, as the CLI reads it. */
  setSetting(key: string, raw: string): Promise<ChangeOutcome> {
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // plain text
    }
    return this.change(this.send('put', `/settings/${encodeURIComponent(key)}`, { value }));
  }

  addPack(fields: PackFields): Promise<ChangeOutcome> {
    return this.change(this.send('post', '/packs', fields));
  }

  editPack(id: number, fields: Partial<PackFields> & { hidden?: boolean }): Promise<ChangeOutcome> {
    return this.change(this.send('patch', `/packs/${id}`, fields));
  }

  /** Moves a pack one place up (-1) or down (+1). */
  movePack(id: number, by: -1 | 1): Promise<ChangeOutcome> {
    const ids = (this.catalog?.packs ?? []).map((p) => p.id);
    const at = ids.indexOf(id);
    const to = at + by;
    if (at < 0 || to < 0 || to >= ids.length) return Promise.resolve(DONE);
    [ids[at], ids[to]] = [ids[to]!, ids[at]!];
    return this.change(this.send('put', '/packs/order', { ids }));
  }

  /** Tiers by where each starts (tokens) and its EUR price per token; the server works out where each ends. */
  setTiers(tiers: Array<{ min: string; price: string }>): Promise<ChangeOutcome> {
    return this.change(
      this.send('put', '/tiers', { tiers: tiers.map((t) => ({ min: Number(t.min), price: t.price.trim() })) }),
    );
  }

  setCurrency(code: string, rate: string, symbol: string): Promise<ChangeOutcome> {
    const body = symbol.trim() ? { rate: rate.trim(), symbol: symbol.trim() } : { rate: rate.trim() };
    return this.change(this.send('put', `/currencies/${encodeURIComponent(code.trim())}`, body));
  }

  setDefaultCurrency(code: string): Promise<ChangeOutcome> {
    return this.change(this.send('post', `/currencies/${encodeURIComponent(code)}/default`));
  }

  setCurrencyHidden(code: string, hidden: boolean): Promise<ChangeOutcome> {
    return this.change(this.send('post', `/currencies/${encodeURIComponent(code)}/${hidden ? 'hide' : 'unhide'}`));
  }

  savePage(slug: string, title: string, html: string): Promise<ChangeOutcome> {
    return this.change(this.send('put', `/pages/${encodeURIComponent(slug.trim())}`, { title, html }));
  }
}

import { makeAutoObservable, runInAction } from 'mobx';
import { endpoints } from '@imagestudio/contracts';
import type { ApiClient } from '../../../lib/api/api-client';
import type { Translate } from '../../../lib/i18n';
import type { PackView } from '@imagestudio/contracts';

/** The packs payload is a list or an object keyed by id; anything else is invalid. */
export function normalizePacks(payload: unknown): PackView[] | null {
  const list = Array.isArray(payload)
    ? payload
    : payload && typeof payload === 'object'
      ? Object.values(payload)
      : null;
  if (!list) return null;
  const packs = list.filter((p): p is PackView => Boolean(p) && typeof p === 'object' && 'id' in p && 'credits' in p);
  return packs.map((p) => ({ ...p, price: Number(p.price) || 0, credits: Number(p.credits) || 0 }));
}

/** Token packs in the current currency. */
export class PacksStore {
  packs: PackView[] = [];
  loading = false;
  error: string | null = null;

  constructor(
    private readonly api: ApiClient,
    private readonly t: Translate,
  ) {
    makeAutoObservable<PacksStore, 'api' | 't'>(this, { api: false, t: false });
  }

  get freePacks(): PackView[] {
    return this.packs.filter((p) => p.price === 0);
  }

  get paidPacks(): PackView[] {
    return this.packs.filter((p) => p.price > 0);
  }

  /** Loads packs with prices in the current currency (the API client adds it). */
  async load(): Promise<void> {
    this.loading = true;
    try {
      const reply = await this.api.call(endpoints.catalog.packs);
      if (reply.status !== 'OK') throw new Error(this.t('shell.errors.fetchPacks'));
      const packs = normalizePacks(reply.payload);
      runInAction(() => {
        if (packs) {
          this.packs = packs;
          this.error = null;
        } else {
          this.error = this.t('shell.errors.invalidPacks');
        }
      });
    } catch {
      runInAction(() => {
        this.error = this.t('shell.errors.fetchPacks');
      });
    } finally {
      runInAction(() => {
        this.loading = false;
      });
    }
  }
}

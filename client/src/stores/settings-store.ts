import { makeAutoObservable, runInAction } from 'mobx';
import { endpoints } from '@imagestudio/contracts';
import type { ApiClient } from '../lib/api/api-client';
import type { Translate } from '../lib/i18n';
import type { Settings } from '@imagestudio/contracts';

/** Public settings (company details, registration switch, prices, payment methods). */
export class SettingsStore {
  settings: Settings | null = null;
  loading = false;
  error: string | null = null;

  constructor(
    private readonly api: ApiClient,
    private readonly t: Translate,
  ) {
    makeAutoObservable<SettingsStore, 'api' | 't'>(this, { api: false, t: false });
  }

  /** Registration is open unless settings say otherwise. */
  get registrationEnabled(): boolean {
    const flag = this.settings?.is_reg_enabled;
    return flag === undefined || flag === null || Boolean(Number(flag));
  }

  async load(): Promise<void> {
    this.loading = true;
    try {
      const reply = await this.api.call(endpoints.catalog.settings);
      if (reply.status !== 'OK' || !reply.payload) throw new Error('bad reply');
      runInAction(() => {
        this.settings = reply.payload;
        this.error = null;
      });
    } catch {
      runInAction(() => {
        this.error = this.t('shell.errors.fetchSettings');
      });
    } finally {
      runInAction(() => {
        this.loading = false;
      });
    }
  }
}

import { makeAutoObservable, reaction, runInAction } from 'mobx';
import { endpoints } from '@imagestudio/contracts';
import type { ApiKeyView, CreatedApiKey } from '@imagestudio/contracts';
import { ApiRequestError } from '../../../lib/api/api-error';
import type { RootStore } from '../../../stores/root-store';

/** The account's API keys tab: the active keys, the key just created (shown once), the webhook secret. */
export class ApiKeysStore {
  keys: ApiKeyView[] = [];
  loaded = false;
  busy = false;
  error: string | null = null;
  fieldErrors: Record<string, string> = {};
  /** The whole key, only until the tab is left or another key is made. */
  created: CreatedApiKey | null = null;
  webhookSecret: string | null = null;

  constructor(private readonly root: RootStore) {
    makeAutoObservable<ApiKeysStore, 'root'>(this, { root: false });
    reaction(
      () => this.root.auth.isAuthenticated,
      (signedIn) => {
        if (!signedIn) this.clear();
      },
    );
  }

  clear(): void {
    this.keys = [];
    this.loaded = false;
    this.error = null;
    this.fieldErrors = {};
    this.created = null;
    this.webhookSecret = null;
  }

  async load(): Promise<void> {
    if (!this.root.auth.isAuthenticated) return;
    try {
      const [keys, secret] = await Promise.all([
        this.root.api.call(endpoints.apiKeys.list),
        this.root.api.call(endpoints.apiKeys.webhookSecret),
      ]);
      runInAction(() => {
        this.keys = keys.payload;
        this.webhookSecret = secret.payload.secret ?? null;
        this.loaded = true;
        this.error = null;
      });
    } catch {
      runInAction(() => (this.error = this.root.t('client-developer.keys.loadFailed')));
    }
  }

  async create(name: string, expiresOn: string): Promise<void> {
    this.busy = true;
    this.fieldErrors = {};
    this.error = null;
    try {
      // A date picked without a time means "until the end of that day" in the user's time zone.
      const expires_at = expiresOn ? new Date(`${expiresOn}T23:59:59`).toISOString() : null;
      const reply = await this.root.api.call(endpoints.apiKeys.create, { body: { name, expires_at } });
      runInAction(() => (this.created = reply.payload));
      await this.load();
    } catch (err) {
      runInAction(() => {
        if (err instanceof ApiRequestError && Object.keys(err.fieldErrors).length > 0) {
          this.fieldErrors = Object.fromEntries(Object.entries(err.fieldErrors).map(([k, v]) => [k, v[0] ?? '']));
        } else this.error = err instanceof Error ? err.message : String(err);
      });
    } finally {
      runInAction(() => (this.busy = false));
    }
  }

  async revoke(id: string): Promise<void> {
    try {
      await this.root.api.call(endpoints.apiKeys.revoke, { params: { id } });
      runInAction(() => {
        this.keys = this.keys.filter((k) => k.id !== id);
        if (this.created?.id === id) this.created = null;
      });
    } catch (err) {
      runInAction(() => (this.error = err instanceof Error ? err.message : String(err)));
    }
  }

  /** Replaces the webhook secret (POST /user/webhook-secret/rotate) and shows the new one. */
  async rotateWebhookSecret(): Promise<void> {
    try {
      const reply = await this.root.api.call(endpoints.apiKeys.rotateWebhookSecret);
      runInAction(() => (this.webhookSecret = reply.payload.secret ?? this.webhookSecret));
    } catch (err) {
      runInAction(() => (this.error = err instanceof Error ? err.message : String(err)));
    }
  }

  dismissCreated(): void {
    this.created = null;
  }
}

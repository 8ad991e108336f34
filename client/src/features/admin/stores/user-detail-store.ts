import { makeAutoObservable, runInAction } from 'mobx';
import type { AdminUserDetail } from '@imagestudio/contracts';
import type { RootStore } from '../../../stores/root-store';
import { DONE, failed, type ChangeOutcome } from './changes';
import type { ReauthStore } from './reauth';
import { endpoints } from '@imagestudio/contracts';

/**
 * One customer in the console: profile, balance, ledger, deposits, jobs and API keys, and the account changes
 * (adjust tokens, disable/enable, sign out everywhere, revoke a key, resend verification). Money and account
 * changes go through the password confirmation; each reloads the detail when it is done.
 */
export class UserDetailStore {
  user: AdminUserDetail | null = null;
  error: string | null = null;
  busy = false;
  /** The adjustment's Idempotency-Key: one per adjustment form, so a resend after a lost reply is not a second grant. */
  private adjustKey = newKey();

  constructor(
    private readonly root: RootStore,
    private readonly reauth: ReauthStore,
  ) {
    makeAutoObservable<UserDetailStore, 'root' | 'reauth' | 'adjustKey'>(this, {
      root: false,
      reauth: false,
      adjustKey: false,
    });
  }

  async load(id: string): Promise<void> {
    if (this.user?.id !== id) this.user = null;
    try {
      const reply = await this.root.api.call(endpoints.admin.user, { params: { id } });
      runInAction(() => {
        this.user = reply.payload;
        this.error = null;
      });
    } catch {
      runInAction(() => (this.error = this.root.t('client-admin.users.loadFailed')));
    }
  }

  private userId(): string {
    return this.user?.id ?? '';
  }

  private async change(send: () => Promise<unknown>, needsReauth = true): Promise<ChangeOutcome> {
    const id = this.user?.id;
    if (!id) return failed(null, this.root.t('client-admin.changeFailed'));
    this.busy = true;
    try {
      await (needsReauth ? this.reauth.run(send) : send());
      await this.load(id);
      return DONE;
    } catch (err) {
      return failed(err, this.root.t('client-admin.changeFailed'));
    } finally {
      runInAction(() => (this.busy = false));
    }
  }

  /** A fresh key for the next adjustment (the form calls it when it opens). */
  startAdjustment(): void {
    this.adjustKey = newKey();
  }

  /** Grants (positive) or deducts (negative) tokens with a reason the customer sees in their token activity. */
  async adjust(tokens: number, reason: string): Promise<ChangeOutcome> {
    const key = this.adjustKey;
    const outcome = await this.change(() =>
      this.root.api.call(
        endpoints.admin.adjustBalance,
        { params: { id: this.userId() }, body: { tokens, reason } },
        { skipErrorHandling: true, headers: { 'Idempotency-Key': key } },
      ),
    );
    if (outcome.ok) this.startAdjustment();
    return outcome;
  }

  setDisabled(disabled: boolean): Promise<ChangeOutcome> {
    const input = { params: { id: this.userId() } };
    const options = { skipErrorHandling: true };
    return this.change(() =>
      disabled
        ? this.root.api.call(endpoints.admin.disableUser, input, options)
        : this.root.api.call(endpoints.admin.enableUser, input, options),
    );
  }

  signOutEverywhere(): Promise<ChangeOutcome> {
    return this.change(() =>
      this.root.api.call(endpoints.admin.signOutUser, { params: { id: this.userId() } }, { skipErrorHandling: true }),
    );
  }

  revokeKey(keyId: string): Promise<ChangeOutcome> {
    return this.change(() =>
      this.root.api.call(
        endpoints.admin.revokeUserKey,
        { params: { id: this.userId(), keyId } },
        { skipErrorHandling: true },
      ),
    );
  }

  resendVerification(): Promise<ChangeOutcome> {
    return this.change(
      () =>
        this.root.api.call(
          endpoints.admin.resendVerification,
          { params: { id: this.userId() } },
          { skipErrorHandling: true },
        ),
      false,
    );
  }
}

function newKey(): string {
  // randomUUID exists in secure contexts only (https, localhost); the fallback is unique enough for one form.
  return `console:${globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`}`;
}

import { computed, makeObservable } from 'mobx';
import { endpoints, type AdminUserDetail } from '@imagestudio/contracts';
import type { RootStore } from '../../../stores/root-store';
import { AdminDetailStore } from './admin-detail-store';
import type { ChangeOutcome } from './changes';
import type { ReauthStore } from './reauth';

/**
 * One customer in the console: profile, balance, ledger, deposits, jobs and API keys, and the account changes
 * (adjust tokens, disable/enable, sign out everywhere, revoke a key, resend verification). Money and account
 * changes go through the password confirmation; each reloads the detail when it is done.
 */
export class UserDetailStore extends AdminDetailStore<AdminUserDetail> {
  /** The adjustment's Idempotency-Key: one per adjustment form, so a resend after a lost reply is not a second grant. */
  private adjustKey = newKey();

  constructor(root: RootStore, reauth: ReauthStore) {
    super(
      root,
      reauth,
      (id) => root.api.call(endpoints.admin.user, { params: { id } }),
      'client-admin.users.loadFailed',
    );
    makeObservable(this, { user: computed });
  }

  get user(): AdminUserDetail | null {
    return this.detail;
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
        { params: { id: this.detailId() }, body: { tokens, reason } },
        { skipErrorHandling: true, headers: { 'Idempotency-Key': key } },
      ),
    );
    if (outcome.ok) this.startAdjustment();
    return outcome;
  }

  setDisabled(disabled: boolean): Promise<ChangeOutcome> {
    const input = { params: { id: this.detailId() } };
    const options = { skipErrorHandling: true };
    return this.change(() =>
      disabled
        ? this.root.api.call(endpoints.admin.disableUser, input, options)
        : this.root.api.call(endpoints.admin.enableUser, input, options),
    );
  }

  signOutEverywhere(): Promise<ChangeOutcome> {
    return this.change(() =>
      this.root.api.call(endpoints.admin.signOutUser, { params: { id: this.detailId() } }, { skipErrorHandling: true }),
    );
  }

  revokeKey(keyId: string): Promise<ChangeOutcome> {
    return this.change(() =>
      this.root.api.call(
        endpoints.admin.revokeUserKey,
        { params: { id: this.detailId(), keyId } },
        { skipErrorHandling: true },
      ),
    );
  }

  resendVerification(): Promise<ChangeOutcome> {
    return this.change(
      () =>
        this.root.api.call(
          endpoints.admin.resendVerification,
          { params: { id: this.detailId() } },
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

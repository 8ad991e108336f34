import { makeAutoObservable, runInAction } from 'mobx';
import { endpoints } from '@imagestudio/contracts';
import { ApiRequestError, messageOf } from '../../../lib/api/api-error';
import type { ChangePasswordInput, ProfileUpdateInput, ProfileView } from '@imagestudio/contracts';
import type { RootStore } from '../../../stores/root-store';

/** The signed-in user's profile; every call does nothing unless signed in. */
export class ProfileStore {
  profile: ProfileView | null = null;
  loading = false;
  error: string | null = null;

  constructor(private readonly root: RootStore) {
    makeAutoObservable<ProfileStore, 'root'>(this, { root: false });
  }

  /** Token balance as a number; 0 when unknown. */
  get balance(): number {
    const value = Number(this.profile?.balance ?? 0);
    return Number.isFinite(value) ? value : 0;
  }

  /** Name and surname joined by a space, trimmed. */
  get fullName(): string {
    return `${this.profile?.name ?? ''} ${this.profile?.surname ?? ''}`.trim();
  }

  async fetch(): Promise<void> {
    if (!this.root.auth.isAuthenticated) return;
    this.loading = true;
    try {
      const reply = await this.root.api.call(endpoints.account.profile);
      if (reply.status !== 'OK' || !reply.payload) throw new Error('bad reply');
      runInAction(() => {
        this.profile = reply.payload;
        this.error = null;
        if (reply.payload) this.root.auth.emailVerified = reply.payload.email_verified;
      });
    } catch (err) {
      runInAction(() => (this.error = messageOf(err, this.root.t('shell.errors.fetchProfile'))));
    } finally {
      runInAction(() => (this.loading = false));
    }
  }

  /** Saves profile fields, then re-fetches the profile. Returns an error message or null. */
  async update(fields: ProfileUpdateInput): Promise<string | null> {
    if (!this.root.auth.isAuthenticated) return null;
    try {
      await this.root.api.call(endpoints.account.updateProfile, { body: fields });
      await this.fetch();
      return null;
    } catch (err) {
      return (
        (err instanceof ApiRequestError && err.firstFieldError()) ||
        messageOf(err, this.root.t('shell.errors.fetchProfile'))
      );
    }
  }

  /** Changes the password; returns the server's message on success. */
  async changePassword(fields: ChangePasswordInput): Promise<{ ok: boolean; message: string }> {
    if (!this.root.auth.isAuthenticated) return { ok: false, message: '' };
    try {
      const reply = await this.root.api.call(endpoints.account.changePassword, { body: fields });
      return { ok: reply.status === 'OK', message: reply.message ?? '' };
    } catch (err) {
      const message =
        (err instanceof ApiRequestError && err.firstFieldError()) ||
        messageOf(err, this.root.t('shell.errors.updatePassword'));
      return { ok: false, message };
    }
  }

  clear(): void {
    this.profile = null;
    this.error = null;
  }
}

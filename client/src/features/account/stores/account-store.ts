import { makeAutoObservable, runInAction } from 'mobx';
import { endpoints } from '@imagestudio/contracts';
import { ApiRequestError, messageOf } from '../../../lib/api/api-error';
import type { RootStore } from '../../../stores/root-store';

/** Editable profile fields as PUT /api/user/profile takes them. */
export interface ProfileFields {
  name: string;
  surname: string;
  phone: string;
  /** The phone in E.164 form as the phone input reads it with its country; null when it cannot. */
  phoneE164: string | null;
  country_id: number | null;
  city: string;
  address: string;
  post_code: string;
}

/** A save that failed: a message per field (the first the server sent) and/or a general message. */
export interface SaveResult {
  ok: boolean;
  fieldErrors: Record<string, string>;
  message: string | null;
}

const firstPerField = (err: ApiRequestError): Record<string, string> =>
  Object.fromEntries(
    Object.entries(err.fieldErrors).flatMap(([field, messages]) => (messages?.[0] ? [[field, messages[0]]] : [])),
  );

/**
 * The account tabs' writes: saving the profile and changing the password, with the server's field
 * errors kept per field (ProfileStore reads the profile; this store changes it and re-fetches).
 */
export class AccountStore {
  savingProfile = false;
  changingPassword = false;
  changingEmail = false;

  constructor(private readonly root: RootStore) {
    makeAutoObservable<AccountStore, 'root'>(this, { root: false });
  }

  /** PUT /api/user/profile, then re-fetches the profile. */
  async saveProfile(fields: ProfileFields): Promise<SaveResult> {
    if (!this.root.auth.isAuthenticated) return { ok: false, fieldErrors: {}, message: null };
    this.savingProfile = true;
    try {
      await this.root.api.call(endpoints.account.updateProfile, { body: fields });
      await this.root.profile.fetch();
      return { ok: true, fieldErrors: {}, message: null };
    } catch (err) {
      const fieldErrors = err instanceof ApiRequestError ? firstPerField(err) : {};
      const message = Object.keys(fieldErrors).length > 0 ? null : messageOf(err, this.root.t('shell.errors.generic'));
      return { ok: false, fieldErrors, message };
    } finally {
      runInAction(() => (this.savingProfile = false));
    }
  }

  /** POST /api/user/change-password; the fallback message is "Failed to update password". */
  async changePassword(fields: {
    current_password: string;
    password: string;
    password_confirmation: string;
  }): Promise<SaveResult> {
    if (!this.root.auth.isAuthenticated) return { ok: false, fieldErrors: {}, message: null };
    this.changingPassword = true;
    try {
      const reply = await this.root.api.call(endpoints.account.changePassword, { body: fields });
      if (reply.status !== 'OK') throw new ApiRequestError('http', reply.message ?? '');
      return {
        ok: true,
        fieldErrors: {},
        message: reply.message || this.root.t('client-payments.account.password.updated'),
      };
    } catch (err) {
      const fieldErrors = err instanceof ApiRequestError ? firstPerField(err) : {};
      const message =
        Object.keys(fieldErrors).length > 0 ? null : messageOf(err, this.root.t('shell.errors.updatePassword'));
      return { ok: false, fieldErrors, message };
    } finally {
      runInAction(() => (this.changingPassword = false));
    }
  }

  /**
   * Asks for a change of email address: the server mails a confirmation link to the new address (the change
   * happens when it is opened). The reply's message says so; field errors come per field.
   */
  async changeEmail(fields: { email: string; current_password: string }): Promise<SaveResult> {
    if (!this.root.auth.isAuthenticated) return { ok: false, fieldErrors: {}, message: null };
    this.changingEmail = true;
    try {
      const reply = await this.root.api.call(endpoints.account.changeEmail, { body: fields });
      if (reply.status !== 'OK') throw new ApiRequestError('http', reply.message ?? '');
      return { ok: true, fieldErrors: {}, message: reply.message || this.root.t('client-payments.account.email.sent') };
    } catch (err) {
      const fieldErrors = err instanceof ApiRequestError ? firstPerField(err) : {};
      const message =
        Object.keys(fieldErrors).length > 0
          ? null
          : messageOf(err, this.root.t('client-payments.account.email.failed'));
      return { ok: false, fieldErrors, message };
    } finally {
      runInAction(() => (this.changingEmail = false));
    }
  }
}

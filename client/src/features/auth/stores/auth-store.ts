import { makeAutoObservable, runInAction } from 'mobx';
import { endpoints } from '@imagestudio/contracts';
import { STORAGE_KEYS } from '../../../config/constants';
import { ApiRequestError, hasStatus, messageOf } from '../../../lib/api/api-error';
import { loginRedirectPath } from '../../../lib/redirect';
import { storage } from '../../../lib/storage';
import type { RootStore } from '../../../stores/root-store';

export interface LoginInput {
  email: string;
  password: string;
  rememberMe: boolean;
}

export interface RegisterInput {
  name: string;
  surname: string;
  email: string;
  phone: string;
  phoneE164: string;
  password: string;
  password_confirmation: string;
}

/** Register form field names; the server's names are mapped onto them. */
export type RegisterField = 'firstName' | 'lastName' | 'email' | 'phone' | 'password' | 'confirmPassword';

export type ActionResult<F extends string = string> =
  { ok: true } | { ok: false; message: string; fieldErrors: Partial<Record<F, string>> };

const REGISTER_FIELD_MAP: Record<string, RegisterField> = {
  name: 'firstName',
  surname: 'lastName',
  password_confirmation: 'confirmPassword',
  email: 'email',
  phone: 'phone',
  phoneE164: 'phone',
  password: 'password',
};

/** Every auth state and transition (docs/product-behaviour.md#session-and-account-state-client). */
export class AuthStore {
  isAuthenticated: boolean;
  emailVerified = false;
  authCheckedOnce = false;
  sessionExpired = false;
  error: string | null = null;
  isLoading = false;
  /** Where the guest-only page sends the user right after a successful sign-in or sign-up. */
  pendingRedirect: string | null = null;

  constructor(private readonly root: RootStore) {
    // On start the user counts as signed in if the flag exists; the first check confirms or clears it.
    this.isAuthenticated = storage.get(STORAGE_KEYS.authSession) !== null;
    makeAutoObservable<AuthStore, 'root'>(this, { root: false });
  }

  /** Asks the server whether the session is still valid. */
  async checkAuth(): Promise<void> {
    this.isLoading = true;
    try {
      const reply = await this.root.api.call(endpoints.account.isAuth, {}, { skipErrorHandling: true });
      if (reply.status === 'OK' && reply.authenticated === true) this.signedIn(reply.emailVerified);
      else this.clear();
    } catch (err) {
      if (hasStatus(err, 401, 403)) this.clear();
      else runInAction(() => (this.error = this.root.t('shell.errors.authStatus')));
    } finally {
      runInAction(() => {
        this.authCheckedOnce = true;
        this.isLoading = false;
      });
    }
  }

  /** Signs in; on failure returns the first field error, else the message, else "An error occurred". */
  async login(input: LoginInput, redirectTo?: string): Promise<ActionResult> {
    this.isLoading = true;
    this.error = null;
    try {
      const reply = await this.root.api.call(endpoints.account.login, {
        body: { username: input.email, password: input.password, remember: input.rememberMe },
      });
      if (reply.status !== 'OK') throw new ApiRequestError('http', reply.message ?? '');
      runInAction(() => {
        this.pendingRedirect = redirectTo ?? null;
        this.signedIn(reply.emailVerified);
      });
      this.root.ui.success(this.root.t('shell.toast.welcomeBack'));
      return { ok: true };
    } catch (err) {
      const message =
        (err instanceof ApiRequestError && (err.firstFieldError() || (err.kind === 'http' && err.message))) ||
        this.root.t('shell.errors.generic');
      runInAction(() => (this.error = message));
      return { ok: false, message, fieldErrors: {} };
    } finally {
      runInAction(() => (this.isLoading = false));
    }
  }

  /** Creates the account and signs in; server field errors are mapped onto the form's field names. */
  async register(input: RegisterInput, redirectTo?: string): Promise<ActionResult<RegisterField>> {
    this.isLoading = true;
    this.error = null;
    try {
      const reply = await this.root.api.call(endpoints.account.register, { body: input });
      if (reply.status !== 'OK') throw new ApiRequestError('http', reply.message ?? '');
      runInAction(() => {
        this.pendingRedirect = redirectTo ?? null;
        this.signedIn(reply.emailVerified);
      });
      this.root.ui.success(this.root.t('shell.toast.welcome'));
      return { ok: true };
    } catch (err) {
      const fieldErrors: Partial<Record<RegisterField, string>> = {};
      if (err instanceof ApiRequestError) {
        for (const [field, messages] of Object.entries(err.fieldErrors)) {
          const target = REGISTER_FIELD_MAP[field];
          if (target && messages?.[0] && !fieldErrors[target]) fieldErrors[target] = messages[0];
        }
      }
      const message = messageOf(err, '') || this.root.t('shell.errors.registrationFailed');
      // A field problem (e.g. the email is taken) is shown once, under its field: no toast and no
      // stored error that the next page would show again.
      const onFields = Object.keys(fieldErrors).length > 0;
      runInAction(() => (this.error = onFields ? null : message));
      if (!onFields) this.root.ui.error(message);
      return { ok: false, message, fieldErrors };
    } finally {
      runInAction(() => (this.isLoading = false));
    }
  }

  /** Signs out; local state is cleared whether or not the server call succeeds. */
  async logout(): Promise<void> {
    try {
      await this.root.api.call(endpoints.account.logout, {}, { skipErrorHandling: true });
      this.root.ui.success(this.root.t('shell.toast.loggedOut'));
    } catch {
      runInAction(() => (this.error = this.root.t('shell.errors.logoutFailed')));
      this.root.ui.error(this.root.t('shell.toast.logoutFailed'));
    } finally {
      this.clear();
    }
  }

  /** Sends the reset link; a non-OK status is an error with its message. */
  async requestPasswordReset(email: string): Promise<ActionResult> {
    return this.passwordCall(
      () => this.root.api.call(endpoints.account.requestPasswordResetLink, { query: { email } }, { xsrf: true }),
      'shell.errors.sendResetEmail',
      'shell.toast.resetLinkSent',
    );
  }

  /** Sets a new password from a reset link. */
  async resetPassword(input: {
    token: string;
    email: string;
    password: string;
    password_confirmation: string;
  }): Promise<ActionResult> {
    return this.passwordCall(
      () => this.root.api.call(endpoints.account.restorePassword, { body: input }),
      'shell.errors.resetPassword',
      'shell.toast.passwordReset',
    );
  }

  /** A 401 on any call: session expired (once), signed out, and sent to Login when the page needs sign-in. */
  handleUnauthorized(): void {
    if (this.sessionExpired) return;
    this.sessionExpired = true;
    const wasSignedIn = this.isAuthenticated;
    this.clear();
    const nav = this.root.navigator;
    if (wasSignedIn && nav.requiresAuth(nav.location().pathname)) {
      this.root.ui.error(this.root.t('shell.errors.sessionExpired'));
      nav.navigate(loginRedirectPath(nav.fullPath()), { replace: true });
    }
  }

  setPendingRedirect(path: string | null): void {
    this.pendingRedirect = path;
  }

  /** Records a successful check, login or registration. */
  signedIn(emailVerified?: boolean): void {
    this.isAuthenticated = true;
    this.sessionExpired = false;
    this.error = null;
    if (emailVerified !== undefined) this.emailVerified = emailVerified;
    storage.set(STORAGE_KEYS.authSession, '1');
  }

  /** Clears every trace of the session: state, flag and profile (and a token stored by an earlier client version). */
  clear(): void {
    this.isAuthenticated = false;
    this.emailVerified = false;
    storage.remove(STORAGE_KEYS.authSession);
    storage.remove(STORAGE_KEYS.token);
    this.root.profile.clear();
  }

  private async passwordCall(
    call: () => Promise<{ status: string; message?: string }>,
    fallbackKey: 'shell.errors.sendResetEmail' | 'shell.errors.resetPassword',
    successKey: 'shell.toast.resetLinkSent' | 'shell.toast.passwordReset',
  ): Promise<ActionResult> {
    this.isLoading = true;
    try {
      const reply = await call();
      if (reply.status !== 'OK') throw new ApiRequestError('http', reply.message || this.root.t(fallbackKey));
      this.root.ui.success(this.root.t(successKey));
      return { ok: true };
    } catch (err) {
      let message =
        (err instanceof ApiRequestError && (err.firstFieldError() || (err.kind === 'http' && err.message))) || '';
      if (!message) {
        message =
          fallbackKey === 'shell.errors.resetPassword' && err instanceof ApiRequestError && err.kind === 'network'
            ? this.root.t('shell.errors.resetPasswordUnexpected')
            : this.root.t(fallbackKey);
      }
      return { ok: false, message, fieldErrors: {} };
    } finally {
      runInAction(() => (this.isLoading = false));
    }
  }
}

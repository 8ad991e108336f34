import { makeAutoObservable, runInAction } from 'mobx';
import { ApiRequestError } from '../../../lib/api/api-error';
import type { RootStore } from '../../../stores/root-store';
import { endpoints } from '@imagestudio/contracts';

/**
 * The console's password confirmation: a money or account change the server answers with 403
 * `reauth_required` opens the dialog (`open`); the operator's password goes to POST
 * /admin/confirm-password, and the change is sent once more. Cancelling the dialog fails the change.
 */
export class ReauthStore {
  open = false;
  busy = false;
  error: string | null = null;
  private waiting: ((confirmed: boolean) => void) | null = null;

  constructor(private readonly root: RootStore) {
    makeAutoObservable<ReauthStore, 'root' | 'waiting'>(this, { root: false, waiting: false });
  }

  /**
   * Runs a change; on `reauth_required` asks for the password and runs it again, once. Every other failure
   * is thrown to the caller (the change's own page shows it).
   */
  async run<T>(send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof ApiRequestError && err.code === 'reauth_required')) throw err;
      if (!(await this.ask())) throw err;
      return send();
    }
  }

  /** Opens the dialog; resolves true once the password is confirmed, false when the dialog is closed. */
  private ask(): Promise<boolean> {
    this.waiting?.(false);
    this.open = true;
    this.error = null;
    return new Promise((resolve) => (this.waiting = resolve));
  }

  async confirm(password: string): Promise<void> {
    this.busy = true;
    this.error = null;
    try {
      await this.root.api.call(endpoints.admin.confirmPassword, { body: { password } }, { skipErrorHandling: true });
      runInAction(() => this.settle(true));
    } catch (err) {
      runInAction(() => {
        this.error =
          err instanceof ApiRequestError
            ? (err.firstFieldError() ?? (err.message || this.root.t('client-admin.reauth.failed')))
            : this.root.t('client-admin.reauth.failed');
      });
    } finally {
      runInAction(() => (this.busy = false));
    }
  }

  cancel(): void {
    this.settle(false);
  }

  private settle(confirmed: boolean): void {
    this.open = false;
    this.error = null;
    const resolve = this.waiting;
    this.waiting = null;
    resolve?.(confirmed);
  }
}

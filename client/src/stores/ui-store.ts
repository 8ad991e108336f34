import { makeAutoObservable } from 'mobx';
import { COOKIE_CONSENT, LIMITS_UI, TIMINGS } from '../config/constants';
import { readCookie, writeCookie } from '../lib/storage';

export type ToastKind = 'info' | 'success' | 'warning' | 'error';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

/** Toasts (bottom right, 3000 ms, stacked) and which named modal is open. */
export class UiStore {
  toasts: Toast[] = [];
  openModalId: string | null = null;
  /** Cookies accepted ("true" stored): only then do optional scripts such as the Google tag load. */
  cookieConsent = readCookie(COOKIE_CONSENT) === 'true';
  private nextId = 1;
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();

  constructor(private readonly toastMs: number = TIMINGS.toastMs) {
    makeAutoObservable<UiStore, 'timers' | 'nextId'>(this, { timers: false, nextId: false });
  }

  /** Stores the cookie answer for LIMITS_UI.cookieConsentDays; "false" asks again on the next visit. */
  answerCookies(accepted: boolean): void {
    writeCookie(COOKIE_CONSENT, accepted ? 'true' : 'false', LIMITS_UI.cookieConsentDays);
    this.cookieConsent = accepted;
  }

  /** Shows a toast that disappears after 3000 ms; returns its id. */
  toast(kind: ToastKind, message: string): number {
    const id = this.nextId++;
    this.toasts.push({ id, kind, message });
    this.timers.set(
      id,
      setTimeout(() => this.dismiss(id), this.toastMs),
    );
    return id;
  }

  success(message: string): number {
    return this.toast('success', message);
  }

  error(message: string): number {
    return this.toast('error', message);
  }

  warning(message: string): number {
    return this.toast('warning', message);
  }

  info(message: string): number {
    return this.toast('info', message);
  }

  dismiss(id: number): void {
    this.toasts = this.toasts.filter((toast) => toast.id !== id);
    const timer = this.timers.get(id);
    if (timer) clearTimeout(timer);
    this.timers.delete(id);
  }

  openModal(id: string): void {
    this.openModalId = id;
  }

  closeModal(id?: string): void {
    if (!id || this.openModalId === id) this.openModalId = null;
  }

  isModalOpen(id: string): boolean {
    return this.openModalId === id;
  }
}

import { makeAutoObservable, runInAction } from 'mobx';
import { endpoints } from '@imagestudio/contracts';
import type { DepositStatus } from '@imagestudio/contracts';
import type { PackView } from '@imagestudio/contracts';
import { paths } from '../../../config/paths';
import { hasStatus } from '../../../lib/api/api-error';
import type { RootStore } from '../../../stores/root-store';
import type { ExactQuote } from '@imagestudio/contracts';
import { checkTopUp, type TopUpCheck } from './top-up-validation';

/** UiStore modal ids of the two purchase modals. */
export const BUY_TOKENS_MODAL = 'buy-tokens';
export const CHECKOUT_MODAL = 'checkout';
/** The payment type defaults to card. */
export const DEFAULT_PAYMENT_TYPE = 'card';
/** Deposit status is polled every 5000 ms until it is terminal. */
export const DEPOSIT_POLL_MS = 5000;

export type { DepositStatus };
const TERMINAL: ReadonlySet<DepositStatus> = new Set(['Success', 'Error', 'Cancelled', 'Expired']);

/** Whether a deposit status is final (Success, Error and Cancelled never change). */
export const isTerminalDeposit = (status: DepositStatus | null): boolean => status !== null && TERMINAL.has(status);

/**
 * checkDeposit's answer for an order the server does not know (404: no such order, or another customer's),
 * as opposed to null, an order that could not be read just now (network trouble).
 */
export const UNKNOWN_ORDER = 'unknown-order';

/** The priced plan the modals show: pack title or "Custom Plan", and its exact quote. */
export interface TopUpPlan {
  title: string;
  quote: ExactQuote;
}

/**
 * The top-up flow: what is being bought (pack, then tokens, then amount),
 * payment type, terms acceptance, the Buy Tokens -> Confirm Information modal steps, and the deposit
 * whose status the payment pages poll.
 */
export class TopUpStore {
  packId: number | string | null = null;
  tokens: number | null = null;
  amount: string | null = null;
  paymentType: string | null = DEFAULT_PAYMENT_TYPE;
  termsAccepted = false;
  /** The Buy Tokens modal's blocking error, or its minimum top-up warning. */
  error: string | null = null;
  warning: string | null = null;
  depositId: string | null = null;
  depositStatus: DepositStatus | null = null;
  redirectUrl: string | null = null;
  private pollTimer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly root: RootStore) {
    makeAutoObservable<TopUpStore, 'root' | 'pollTimer'>(this, { root: false, pollTimer: false });
  }

  get selectedPack(): PackView | undefined {
    if (this.packId === null) return undefined;
    return this.root.packs.packs.find((p) => String(p.id) === String(this.packId));
  }

  /** The choice by priority: a (known, paid) pack, then tokens, then amount. */
  get choice(): TopUpCheck['choice'] {
    if (this.packId !== null) return this.selectedPack && this.selectedPack.price > 0 ? { kind: 'pack' } : null;
    if (this.tokens !== null) return { kind: 'tokens', tokens: this.tokens };
    if (this.amount !== null && this.amount.trim() !== '') return { kind: 'amount', amount: this.amount };
    return null;
  }

  /** The plan in the current currency, re-priced whenever the currency, packs or tiers change. */
  get plan(): TopUpPlan | null {
    const pricing = this.root.tokenPricing;
    const custom = this.root.t('client-payments.buy.customPlan');
    const pack = this.selectedPack;
    if (this.packId !== null) {
      const quote = pack ? pricing.quotePack(pack) : null;
      return pack && quote ? { title: pack.title, quote } : null;
    }
    if (this.tokens !== null) {
      const quote = pricing.quoteTokens(this.tokens);
      return quote ? { title: custom, quote } : null;
    }
    if (this.amount !== null) {
      const quote = pricing.quoteAmount(this.amount);
      return quote ? { title: custom, quote } : null;
    }
    return null;
  }

  selectPack(id: number | string): void {
    this.packId = id;
    this.tokens = null;
    this.amount = null;
  }

  selectTokens(tokens: number): void {
    this.packId = null;
    this.tokens = tokens;
    this.amount = null;
  }

  selectAmount(amount: string): void {
    this.packId = null;
    this.tokens = null;
    this.amount = amount;
  }

  /** Opens Buy Tokens; opening resets the payment type and the terms acceptance. */
  openBuyModal(): void {
    this.paymentType = DEFAULT_PAYMENT_TYPE;
    this.termsAccepted = false;
    this.error = null;
    this.warning = null;
    this.root.ui.openModal(BUY_TOKENS_MODAL);
  }

  setTermsAccepted(accepted: boolean): void {
    this.termsAccepted = accepted;
    if (accepted && this.error === this.root.t('client-payments.errors.acceptTerms')) this.error = null;
  }

  setPaymentType(type: string | null): void {
    this.paymentType = type;
  }

  /** Runs the top-up checks; sets the modal's error or warning and returns whether checkout may open. */
  validate(): boolean {
    const problem = checkTopUp({
      choice: this.choice,
      termsAccepted: this.termsAccepted,
      totalMinor: this.plan?.quote.totalMinor ?? null,
      minTopUpMinor: this.root.tokenPricing.minTopUpMinor,
      paymentType: this.paymentType,
    });
    this.error = problem?.level === 'error' ? this.root.t(problem.key) : null;
    this.warning =
      problem?.level === 'warning' ? this.root.t(problem.key, { n: this.root.tokenPricing.minTopUpText }) : null;
    return problem === null;
  }

  /** The card button of Buy Tokens: on valid input, goes on to Confirm Information. */
  proceedToCheckout(paymentType: string = DEFAULT_PAYMENT_TYPE): boolean {
    this.paymentType = paymentType;
    if (!this.validate()) return false;
    this.root.ui.openModal(CHECKOUT_MODAL);
    return true;
  }

  /** Back in Confirm Information: returns to Buy Tokens as it was left. */
  backToBuyModal(): void {
    this.root.ui.openModal(BUY_TOKENS_MODAL);
  }

  closeModals(): void {
    this.root.ui.closeModal(BUY_TOKENS_MODAL);
    this.root.ui.closeModal(CHECKOUT_MODAL);
  }

  /** Checkout answered with a redirect: remember the deposit (its `order` parameter) and the URL. */
  recordRedirect(url: string): void {
    this.redirectUrl = url;
    this.depositId = depositIdFromUrl(url);
    this.depositStatus = 'Pending';
  }

  /** Asks the API once for a deposit's status; returns it, or null when the call failed. */
  /** GET /deposit/status/{id}: the deposit's state, amount and pack; null when it cannot be read. */
  private async readDeposit(
    depositId: string,
  ): Promise<{ status: DepositStatus; tokens: number; pack_id: number | null } | typeof UNKNOWN_ORDER | null> {
    try {
      const reply = await this.root.api.call(
        endpoints.payments.depositStatus,
        { params: { depositId } },
        { skipErrorHandling: true },
      );
      return reply.payload;
    } catch (err) {
      return hasStatus(err, 404) ? UNKNOWN_ORDER : null;
    }
  }

  /**
   * Where "Try again" leads after a failed payment: pricing with the same pack or amount reopened (the page
   * opens Buy Tokens for it), or plain pricing when the order cannot be read.
   */
  async retryPath(depositId: string): Promise<string> {
    const deposit = await this.readDeposit(depositId);
    if (typeof deposit !== 'object' || deposit === null) return paths.pricing;
    if (deposit.pack_id != null) return `${paths.pricing}?pack=${deposit.pack_id}`;
    if (deposit.tokens) return `${paths.pricing}?tokens=${deposit.tokens}`;
    return paths.pricing;
  }

  /** The order's status (and the store keeps it), UNKNOWN_ORDER, or null when it could not be read. */
  async checkDeposit(depositId: string): Promise<DepositStatus | typeof UNKNOWN_ORDER | null> {
    const deposit = await this.readDeposit(depositId);
    if (typeof deposit !== 'object' || deposit === null) return deposit;
    runInAction(() => {
      this.depositId = depositId;
      this.depositStatus = deposit.status;
    });
    return deposit.status;
  }

  /**
   * Polls a deposit every 5 s until it is Success, Error, Cancelled or Expired, then
   * calls `onTerminal` once. A new poll replaces the previous one; stopPolling() ends it.
   */
  pollDeposit(depositId: string, onTerminal?: (status: DepositStatus) => void): void {
    this.stopPolling();
    const tick = async () => {
      const status = await this.checkDeposit(depositId);
      if (this.pollTimer !== timer) return;
      // an order the server does not know never settles: asking every 5 s would only repeat the 404
      if (status === UNKNOWN_ORDER) this.stopPolling();
      else if (status && isTerminalDeposit(status)) {
        this.stopPolling();
        onTerminal?.(status);
      }
    };
    const timer = setInterval(() => void tick(), DEPOSIT_POLL_MS);
    this.pollTimer = timer;
  }

  stopPolling(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  get polling(): boolean {
    return this.pollTimer !== null;
  }
}

/** The deposit id is the `order` query parameter of the checkout's redirect URL. */
export function depositIdFromUrl(url: string): string | null {
  try {
    return new URL(url, 'http://relative.invalid').searchParams.get('order');
  } catch {
    return null;
  }
}

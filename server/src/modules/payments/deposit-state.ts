import type { DepositStatus } from './deposits.repository';

/**
 * What a payment provider (a Stripe event, a Session re-check, the test checkout) reports about a
 * deposit. `paid` carries what was actually charged, so it can be checked against the quote.
 */
export type PaymentOutcome =
  | { kind: 'paid'; amountMinor: number; currency: string; paymentIntentId?: string | null }
  | { kind: 'processing'; paymentIntentId?: string | null }
  | { kind: 'failed'; error: string }
  | { kind: 'cancelled' }
  /** The checkout session ran out unpaid (abandoned): nothing was charged. */
  | { kind: 'expired' };

/** Success, Error, Cancelled and Expired are terminal: a deposit never leaves them. */
export const TERMINAL_STATUSES: readonly DepositStatus[] = ['Success', 'Error', 'Cancelled', 'Expired'];

export function isTerminal(status: DepositStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

const TARGET: Record<PaymentOutcome['kind'], DepositStatus> = {
  paid: 'Success',
  processing: 'Processing',
  failed: 'Error',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

/**
 * The status an outcome moves a deposit to, or null when it changes nothing: a terminal state never
 * moves again (a late "expired" after a payment, or a replayed "completed" after an async failure),
 * and Processing never goes back to Processing.
 */
export function nextStatus(current: DepositStatus, outcome: PaymentOutcome): DepositStatus | null {
  if (isTerminal(current)) return null;
  const target = TARGET[outcome.kind];
  return target === current ? null : target;
}

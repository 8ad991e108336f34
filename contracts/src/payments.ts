/**
 * Shapes of the payment calls the server answers and the client reads: a deposit's status
 * and GET /api/user/payment-history. One definition, so the two sides cannot drift apart.
 */

/** Deposit states, as the deposits table's check constraint lists them. */
export const DEPOSIT_STATUSES = ['Pending', 'Processing', 'Success', 'Error', 'Cancelled', 'Expired'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

/** One row of GET /api/user/payment-history. */
export interface PaymentHistoryItem {
  id: string;
  date: string;
  status: DepositStatus;
  pack: string | null;
  tokens: number;
  amount: number;
  currency: string;
  method: string | null;
  /** Receipts exist for successful payments only. */
  has_receipt: boolean;
}

/** GET /api/user/payment-history: one page, newest first. */
export interface PaymentHistoryPage {
  items: PaymentHistoryItem[];
  page: number;
  per_page: number;
  total: number;
  last_page: number;
}

/** GET /api/deposit/status/{id}: where a payment stands. */
export interface DepositStatusView {
  id: string;
  status: DepositStatus;
  tokens: number;
  /** The pack bought, or null for a custom amount: "Try again" reopens the same choice. */
  pack_id: number | null;
  amount: number;
  currency: string;
  created_at: string;
}

/**
 * Shapes of the payment calls the server answers and the client reads: a deposit's status
 * and GET /api/user/payment-history. One definition, so the two sides cannot drift apart: the types are
 * inferred from the schemas in payment-schemas.ts (types only, so this module stays free of zod).
 */
import type { z } from 'zod';
import type { depositStatusViewSchema, paymentHistoryItemSchema, paymentHistoryPageSchema } from './payment-schemas';

/** Deposit states, as the deposits table's check constraint lists them. */
export const DEPOSIT_STATUSES = ['Pending', 'Processing', 'Success', 'Error', 'Cancelled', 'Expired'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

/** One row of GET /api/user/payment-history. */
export type PaymentHistoryItem = z.infer<typeof paymentHistoryItemSchema>;

/** GET /api/user/payment-history: one page, newest first. */
export type PaymentHistoryPage = z.infer<typeof paymentHistoryPageSchema>;

/** GET /api/deposit/status/{id}: where a payment stands. */
export type DepositStatusView = z.infer<typeof depositStatusViewSchema>;

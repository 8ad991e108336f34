import { z } from 'zod';
import { listPageSchema } from './list-page';
import { DEPOSIT_STATUSES } from './payments';

/**
 * zod schemas of the payment calls' replies (a deposit's status, the payment history, a receipt). The OpenAPI
 * document is generated from them; payments.ts and receipt.ts infer their types from them as types only, so
 * the client reads those modules without zod.
 */

export const depositStatusViewSchema = z
  .object({
    id: z.string(),
    status: z.enum(DEPOSIT_STATUSES),
    tokens: z.number().describe('Tokens the payment credits (exact to 0.1)'),
    pack_id: z
      .number()
      .int()
      .nullable()
      .describe('The pack bought, or null for a custom amount: "Try again" reopens the same choice'),
    amount: z.number().describe("The amount charged, VAT included, in the currency's major units"),
    currency: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'DepositStatus' });

export const paymentHistoryItemSchema = z
  .object({
    id: z.string(),
    date: z.string().describe('When the payment was started (ISO)'),
    status: z.enum(DEPOSIT_STATUSES),
    pack: z.string().nullable().describe("The pack's title; null for a custom amount"),
    tokens: z.number().describe('Tokens the payment credits (exact to 0.1)'),
    amount: z.number().describe("The amount charged, VAT included, in the currency's major units"),
    currency: z.string(),
    method: z.string().nullable().describe("The payment method's title"),
    has_receipt: z.boolean().describe('Receipts exist for successful payments only'),
  })
  .meta({ id: 'PaymentHistoryItem' });

export const paymentHistoryPageSchema = listPageSchema(paymentHistoryItemSchema).meta({ id: 'PaymentHistoryPage' });

const labelled = z.object({ label: z.string(), value: z.string() });
const party = z.object({ heading: z.string(), lines: z.array(z.string()) });

const RECEIPT_ROW_KEYS = ['item', 'method', 'subtotal', 'vat', 'total', 'refunded'] as const;

export const receiptDocumentSchema = z
  .object({
    lang: z.string().describe('The language the receipt is written in'),
    title: z.string(),
    invoice: labelled,
    order: labelled,
    date: labelled,
    seller: party,
    buyer: party,
    rows: z
      .array(z.object({ key: z.enum(RECEIPT_ROW_KEYS), label: z.string(), value: z.string() }))
      .describe('What was bought, how it was paid, subtotal, VAT, total and any refund, in that order'),
  })
  .describe('Every label translated, every amount and date already formatted for the language')
  .meta({ id: 'Receipt' });

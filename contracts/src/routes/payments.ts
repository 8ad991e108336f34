import { z } from 'zod';
import { checkoutBillingSchema } from '../checkout-billing';
import { depositStatusViewSchema, paymentHistoryPageSchema, receiptDocumentSchema } from '../payment-schemas';
import { defineRoutes } from './route';

/** A page number; anything unreadable is page 1 (the history tab's links are all a client sends). */
export const paymentHistoryQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});

/** Card payments (browser), the redirects around the payment page, and the provider's webhook. */
export const paymentRoutes = defineRoutes('payments', {
  // The body is checked by the checkout, which reports the top-up choice and the billing fields together.
  checkout: {
    tag: 'Payments',
    summary: 'Start a card payment',
    auth: 'session',
    body: checkoutBillingSchema,
    validatedBy: 'handler',
    reply: {
      kind: 'json',
      payload: z.object({ deposit_id: z.string() }),
      description: 'redirect_url names the payment page',
    },
  },
  depositStatus: {
    tag: 'Payments',
    summary: 'State of a payment',
    auth: 'session',
    reply: { kind: 'json', payload: depositStatusViewSchema },
  },
  redirect: {
    tag: 'Payments',
    summary: 'Continue to the payment page',
    auth: 'session',
    reply: { kind: 'redirect', description: '303 to the payment page' },
  },
  stripeReturn: {
    operator: true,
    tag: 'Payments',
    summary: 'Return from the payment page',
    auth: 'public',
    reply: { kind: 'redirect', description: '303 to the result page' },
  },
  testCheckout: {
    operator: true,
    tag: 'Payments',
    summary: 'Built-in test payment page (no Stripe keys)',
    auth: 'public',
    reply: { kind: 'html', description: 'HTML page' },
  },
  completeTestCheckout: {
    operator: true,
    tag: 'Payments',
    summary: 'Complete a test payment',
    auth: 'public',
    reply: { kind: 'redirect', description: '303 to the result page' },
  },
  stripeWebhook: {
    operator: true,
    tag: 'Payments',
    summary: 'Stripe webhook (signed by Stripe)',
    auth: 'public',
    reply: {
      kind: 'json',
      payload: z.object({
        received: z.literal(true),
        result: z
          .enum(['handled', 'duplicate', 'ignored'])
          .describe('ignored: an event or payment that is not ours to act on; duplicate: handled before'),
      }),
    },
  },
  history: {
    tag: 'Payments',
    summary: 'Payments, newest first',
    auth: 'session',
    query: paymentHistoryQuerySchema,
    reply: { kind: 'json', payload: paymentHistoryPageSchema },
  },
  receipt: {
    tag: 'Payments',
    summary: 'Receipt of a payment, translated and formatted (a browser opening it is sent to the receipt page)',
    auth: 'session',
    reply: { kind: 'json', payload: receiptDocumentSchema },
  },
  invoice: {
    tag: 'Payments',
    summary: 'PDF invoice of a payment',
    auth: 'session',
    reply: { kind: 'pdf', description: 'PDF invoice' },
  },
});

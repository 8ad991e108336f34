import type { AppContext } from '../../context';
import type { Logger } from '@imagestudio/runtime';
import { createStripeClient, type Stripe } from './stripe.client';

/** What the payment services need: the app's connections plus one Stripe client (null: test checkout). */
export interface Payments {
  ctx: AppContext;
  stripe: Stripe | null;
  logger: Logger;
}

/** The payments services of one app (one Stripe client and its connection pool per app). */
export function createPayments(ctx: AppContext): Payments {
  return { ctx, stripe: createStripeClient(ctx.config), logger: ctx.logger.child({ module: 'payments' }) };
}

/** The app's payments services. */
export function paymentsFor(ctx: AppContext): Payments {
  return ctx.services.payments;
}

/** Replaces the app's Stripe client (tests use a shorter timeout to exercise retries quickly). */
export function useStripeClient(ctx: AppContext, stripe: Stripe | null): void {
  ctx.services.payments = { ...ctx.services.payments, stripe };
}

import type { AppContext } from '../../context';
import type { Logger } from '@imagestudio/runtime';
import { createStripeClient, type Stripe } from './stripe.client';

/** What the payment services need: the app's connections plus one Stripe client (null: test checkout). */
export interface Payments {
  ctx: AppContext;
  stripe: Stripe | null;
  logger: Logger;
}

const byApp = new WeakMap<AppContext, Payments>();

/** The payments services of one app, built once (one Stripe client and its connection pool per app). */
export function paymentsFor(ctx: AppContext): Payments {
  let payments = byApp.get(ctx);
  if (!payments) {
    payments = { ctx, stripe: createStripeClient(ctx.config), logger: ctx.logger.child({ module: 'payments' }) };
    byApp.set(ctx, payments);
  }
  return payments;
}

/** Replaces the app's Stripe client (tests use a shorter timeout to exercise retries quickly). */
export function useStripeClient(ctx: AppContext, stripe: Stripe | null): void {
  byApp.set(ctx, { ...paymentsFor(ctx), stripe });
}

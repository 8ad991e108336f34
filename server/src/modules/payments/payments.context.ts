import type { AppContext } from '../../context';
import type { AppServices } from '../../services';
import type { Logger } from '@imagestudio/runtime';
import { createStripeClient, type Stripe } from './stripe.client';

/** The part of the app the payment services use. */
export type PaymentsDeps = Pick<AppContext, 'config' | 'db' | 'redis'> & {
  services: Pick<AppServices, 'catalog' | 'mailer'>;
};

/** What the payment services need: the app's connections plus one Stripe client (null: test checkout). */
export interface Payments {
  ctx: PaymentsDeps;
  stripe: Stripe | null;
  logger: Logger;
}

/** The payments services of one app (one Stripe client and its connection pool per app). */
export function createPayments(deps: PaymentsDeps & Pick<AppContext, 'logger'>): Payments {
  const { config, db, redis, services, logger } = deps;
  return {
    ctx: { config, db, redis, services },
    stripe: createStripeClient(config),
    logger: logger.child({ module: 'payments' }),
  };
}

/** The app's payments services. */
export function paymentsFor(ctx: { services: Pick<AppServices, 'payments'> }): Payments {
  return ctx.services.payments;
}

/** Replaces the app's Stripe client (tests use a shorter timeout to exercise retries quickly). */
export function useStripeClient(ctx: { services: Pick<AppServices, 'payments'> }, stripe: Stripe | null): void {
  ctx.services.payments = { ...ctx.services.payments, stripe };
}

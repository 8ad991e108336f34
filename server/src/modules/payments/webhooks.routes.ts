import express, { Router } from 'express';
import { routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoutes } from '../../http/route-table';
import { paymentsFor } from './payments.context';
import { handleWebhookEvent, verifyWebhook } from './webhooks.service';

/** Stripe events can exceed the JSON parser's limit (they embed whole objects). */
const WEBHOOK_BODY_LIMIT = '1mb';

/**
 * POST /api/webhooks/stripe. Mounted before the JSON parser, sessions and CSRF: the signature is an
 * HMAC over the exact bytes Stripe sent, and Stripe carries no session or XSRF token.
 */
export function stripeWebhookRouter(ctx: AppContext) {
  const router = Router();
  return mountRoutes(router, routes.payments, {
    stripeWebhook: {
      handler: async ({ req }) => {
        const event = verifyWebhook(req.body as Buffer, req.get('stripe-signature'), ctx.config.STRIPE_WEBHOOK_SECRET);
        const result = await handleWebhookEvent(paymentsFor(ctx), event);
        return { received: true as const, result };
      },
      before: [express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT })],
    },
  });
}

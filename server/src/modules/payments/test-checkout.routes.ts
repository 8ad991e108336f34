import express, { Router } from 'express';
import { z } from 'zod';
import { routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoutes } from '../../http/route-table';
import { paymentsFor } from './payments.context';
import { TEST_OUTCOMES, renderTestCheckout } from './test-checkout.page';
import { completeTestCheckout, findTestCheckout } from './test-checkout.service';

const completeSchema = z.object({ order: z.string(), token: z.string(), outcome: z.enum(TEST_OUTCOMES) });

/**
 * The built-in test checkout (no STRIPE_SECRET_KEY, never in production). Mounted with the raw-body
 * routers, before sessions and CSRF: like Stripe's page, the link's HMAC token is the permission, so
 * its plain HTML forms can post without an XSRF header.
 */
export function testCheckoutRouter(ctx: AppContext) {
  const router = Router();

  return mountRoutes(router, routes.payments, {
    testCheckout: async ({ req, res }) => {
      const { order, token } = req.query;
      const deposit = await findTestCheckout(paymentsFor(ctx), String(order ?? ''), token);
      res
        .type('html')
        .set('Cache-Control', 'no-store')
        .send(renderTestCheckout(deposit, String(token)));
    },

    completeTestCheckout: {
      handler: async ({ req, res }) => {
        const form = completeSchema.parse(req.body);
        res.redirect(303, await completeTestCheckout(paymentsFor(ctx), form.order, form.token, form.outcome));
      },
      before: [express.urlencoded({ extended: false, limit: '4kb' })],
    },
  });
}

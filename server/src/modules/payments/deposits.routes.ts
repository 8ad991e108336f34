import { Router, type Request } from 'express';
import { routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { okWith } from '../../http/route';
import { mountRoutes } from '../../http/route-table';
import { currentUser } from '../../http/current-user';
import { requireVerifiedEmail } from '../auth';
import { startCheckout } from './checkout.service';
import { checkoutRedirect, depositStatus, returnFromStripe } from './deposits.service';
import { paymentsFor } from './payments.context';
import { requestLanguage } from '../catalog';

const orderParam = (req: Request) => (typeof req.query.order === 'string' ? req.query.order : '');

/** Deposits: checkout, status polling, and the redirects around Stripe's payment page. */
export function depositsRouter(ctx: AppContext) {
  const router = Router();
  const payments = () => paymentsFor(ctx);
  const r = routes.payments;

  return mountRoutes(router, r, {
    checkout: {
      handler: async ({ req, body }) => {
        const language = await requestLanguage(ctx, req);
        const started = await startCheckout(
          payments(),
          currentUser(req),
          (body ?? {}) as Record<string, unknown>,
          language.code,
        );
        return okWith({ deposit_id: started.depositId }, { redirect_url: started.redirectUrl });
      },
      before: [requireVerifiedEmail(ctx)],
    },

    depositStatus: ({ req, params }) => depositStatus(payments(), currentUser(req).id, params.depositId),

    // The redirect_url of a Stripe checkout: 303 to the Checkout Session (owner only).
    redirect: async ({ req, res }) => {
      res.redirect(303, await checkoutRedirect(payments(), currentUser(req).id, orderParam(req)));
    },

    // Stripe's success_url: settles from the session when the webhook has not arrived yet.
    stripeReturn: async ({ req, res }) => {
      res.redirect(303, await returnFromStripe(payments(), orderParam(req)));
    },
  });
}

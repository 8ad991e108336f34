import { Router, type Request } from 'express';
import type { AppContext } from '../../context';
import { currentUser, requireUser } from '../../http/current-user';
import { requireVerifiedEmail } from '../auth';
import { sendOk } from '../../http/envelope';
import { startCheckout } from './checkout.service';
import { checkoutRedirect, depositStatus, returnFromStripe } from './deposits.service';
import { paymentsFor } from './payments.context';
import { requestLanguage } from '../catalog';

const orderParam = (req: Request) => (typeof req.query.order === 'string' ? req.query.order : '');

/** Deposits: checkout, status polling, and the redirects around Stripe's payment page. */
export function depositsRouter(ctx: AppContext): Router {
  const router = Router();
  const payments = () => paymentsFor(ctx);

  router.post('/deposit/checkout', requireVerifiedEmail(ctx), async (req, res) => {
    const language = await requestLanguage(ctx, req);
    const started = await startCheckout(
      payments(),
      currentUser(req),
      (req.body ?? {}) as Record<string, unknown>,
      language.code,
    );
    sendOk(res, { deposit_id: started.depositId }, { redirect_url: started.redirectUrl });
  });

  router.get('/deposit/status/:depositId', requireUser, async (req, res) => {
    sendOk(res, await depositStatus(payments(), currentUser(req).id, String(req.params.depositId)));
  });

  // The redirect_url of a Stripe checkout: 303 to the Checkout Session (owner only).
  router.get('/deposit/redirect', requireUser, async (req, res) => {
    res.redirect(303, await checkoutRedirect(payments(), currentUser(req).id, orderParam(req)));
  });

  // Stripe's success_url: settles from the session when the webhook has not arrived yet.
  router.get('/deposit/stripe-return', async (req, res) => {
    res.redirect(303, await returnFromStripe(payments(), orderParam(req)));
  });

  return router;
}

import { Router } from 'express';
import { routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoutes } from '../../http/route-table';
import { currentUser } from '../../http/current-user';
import { invoiceFile, ownReceipt, paymentHistory } from './history.service';
import { attachmentDisposition } from '../../lib/content-disposition';
import { requestLanguage } from '../catalog';
import { paymentsFor } from './payments.context';

/** The account's payment-history tab: the list and each payment's receipt. */
export function paymentHistoryRouter(ctx: AppContext) {
  const router = Router();

  // A browser opening the receipt's address (a link in an older payment email) is sent to the receipt page,
  // signed in or not; the page itself asks for the same address as JSON (a path of its own: mounted before
  // the routes or after makes no difference).
  router.use('/user/payment-history/:depositId/receipt', (req, res, next) => {
    if (req.method !== 'GET' || req.accepts(['json', 'html']) !== 'html') return next();
    res.redirect(302, `/account/payments/${encodeURIComponent(String(req.params.depositId))}/receipt`);
  });

  return mountRoutes(router, routes.payments, {
    history: ({ req, query }) => paymentHistory(paymentsFor(ctx), currentUser(req).id, query.page),

    receipt: async ({ req, res, params }) => {
      const language = await requestLanguage(ctx, req);
      const { document } = await ownReceipt(paymentsFor(ctx), currentUser(req).id, params.depositId, language.code);
      res.set('Cache-Control', 'private, no-store');
      return document;
    },

    invoice: async ({ req, res, params }) => {
      const language = await requestLanguage(ctx, req);
      const file = await invoiceFile(paymentsFor(ctx), currentUser(req).id, params.depositId, language.code);
      res
        .type('application/pdf')
        .set('Cache-Control', 'private, no-store')
        .set('Content-Disposition', attachmentDisposition(file.name))
        .send(file.data);
    },
  });
}

import { Router } from 'express';
import { routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoute } from '../../http/route';
import { currentUser } from '../auth/auth-guards';
import { paymentHistory, receiptHtml } from './history.service';
import { requestLanguage } from '../catalog/localization.service';
import { paymentsFor } from './payments.context';

/** The account's payment-history tab: the list and each payment's receipt. */
export function paymentHistoryRouter(ctx: AppContext): Router {
  const router = Router();

  mountRoute(router, routes.payments.history, ({ req, query }) =>
    paymentHistory(paymentsFor(ctx), currentUser(req).id, query.page),
  );

  mountRoute(router, routes.payments.receipt, async ({ req, res, params }) => {
    const language = await requestLanguage(ctx, req);
    const html = await receiptHtml(paymentsFor(ctx), currentUser(req).id, params.depositId, language.code);
    res.type('html').set('Cache-Control', 'private, no-store').send(html);
  });

  return router;
}

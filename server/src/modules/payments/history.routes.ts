import { Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser, requireUser } from '../../http/current-user';
import { sendOk } from '../../http/envelope';
import { paymentHistory, receiptHtml } from './history.service';
import { requestLanguage } from '../catalog';
import { paymentsFor } from './payments.context';

const pageQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1) });

/** The account's payment-history tab: the list and each payment's receipt. */
export function paymentHistoryRouter(ctx: AppContext): Router {
  const router = Router();

  router.get('/user/payment-history', requireUser, async (req, res) => {
    const { page } = pageQuery.parse(req.query);
    sendOk(res, await paymentHistory(paymentsFor(ctx), currentUser(req).id, page));
  });

  router.get('/user/payment-history/:depositId/receipt', requireUser, async (req, res) => {
    const language = await requestLanguage(ctx, req);
    const html = await receiptHtml(paymentsFor(ctx), currentUser(req).id, String(req.params.depositId), language.code);
    res.type('html').set('Cache-Control', 'private, no-store').send(html);
  });

  return router;
}

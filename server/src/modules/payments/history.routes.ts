import { Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser, requireUser } from '../../http/current-user';
import { sendOk } from '../../http/envelope';
import { invoiceFile, ownReceipt, paymentHistory } from './history.service';
import { attachmentDisposition } from '../../lib/content-disposition';
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

  // A browser opening the address (a link in an older payment email) is sent to the receipt page; the page
  // itself asks for the same address as JSON.
  router.get('/user/payment-history/:depositId/receipt', (req, res, next) => {
    if (req.accepts(['json', 'html']) !== 'html') return next();
    res.redirect(302, `/account/payments/${encodeURIComponent(String(req.params.depositId))}/receipt`);
  });

  router.get('/user/payment-history/:depositId/receipt', requireUser, async (req, res) => {
    const language = await requestLanguage(ctx, req);
    const { document } = await ownReceipt(
      paymentsFor(ctx),
      currentUser(req).id,
      String(req.params.depositId),
      language.code,
    );
    res.set('Cache-Control', 'private, no-store');
    sendOk(res, document);
  });

  router.get('/user/payment-history/:depositId/invoice.pdf', requireUser, async (req, res) => {
    const language = await requestLanguage(ctx, req);
    const file = await invoiceFile(paymentsFor(ctx), currentUser(req).id, String(req.params.depositId), language.code);
    res
      .type('application/pdf')
      .set('Cache-Control', 'private, no-store')
      .set('Content-Disposition', attachmentDisposition(file.name))
      .send(file.data);
  });

  return router;
}

import { Router } from 'express';
import { ledgerQuerySchema } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { currentUser, requireUser } from '../auth/auth-guards';
import { sendOk } from '../../http/envelope';
import { requestLanguage } from '../catalog/localization.service';
import { ledgerCsv, ledgerPage } from './token-activity.service';

/** The account's token activity: the ledger a page at a time, and all of it as a CSV download. */
export function tokenActivityRouter(ctx: AppContext): Router {
  const router = Router();

  router.get('/user/ledger', requireUser, async (req, res) => {
    const { page } = ledgerQuerySchema.parse(req.query);
    // Descriptions in the reader's language (lang_id, else Accept-Language), like the other texts.
    const language = await requestLanguage(ctx, req);
    sendOk(res, await ledgerPage(ctx, currentUser(req).id, page, String(language.id)));
  });

  router.get('/user/ledger.csv', requireUser, (req, res, next) => {
    const csv = ledgerCsv(ctx, currentUser(req).id);
    // Before the first row the failure is still an error envelope; after it, only a cut download.
    csv.once('error', (err) => {
      if (res.headersSent) {
        req.log.error({ err }, 'ledger CSV export ended early');
        res.destroy();
      } else next(err);
    });
    res
      .type('text/csv; charset=utf-8')
      .set('Content-Disposition', 'attachment; filename="token-activity.csv"')
      .set('Cache-Control', 'private, no-store');
    csv.pipe(res);
  });

  return router;
}

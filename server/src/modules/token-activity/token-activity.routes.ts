import { Router } from 'express';
import { routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoutes } from '../../http/route-table';
import { sendDownload } from '../../http/download-stream';
import { currentUser } from '../../http/current-user';
import { requestLanguage } from '../catalog';
import { ledgerCsv, ledgerPage } from './token-activity.service';

/** The account's token activity: the ledger a page at a time, and all of it as a CSV download. */
export function tokenActivityRouter(ctx: AppContext) {
  const router = Router();

  return mountRoutes(router, routes.tokens, {
    // Descriptions in the reader's language (lang_id, else Accept-Language), like the other texts.
    ledger: async ({ req, query }) => {
      const language = await requestLanguage(ctx, req);
      return ledgerPage(ctx, currentUser(req).id, query.page, String(language.id));
    },

    ledgerCsv: async ({ req, res }) => {
      const { rows, csv } = await ledgerCsv(ctx, currentUser(req).id);
      res
        .type('text/csv; charset=utf-8')
        .set('Content-Disposition', 'attachment; filename="token-activity.csv"')
        .set('Cache-Control', 'private, no-store');
      sendDownload(req, res, ctx.config.DOWNLOAD_STALL_TIMEOUT_MS, rows, csv);
    },
  });
}

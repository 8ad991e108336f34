import { Router, type RequestHandler } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { AppContext } from '../../context';
import { audit } from './admin-audit';

/** Where the BullMQ board is served (a page of its own, outside /api and the client's routes). */
export const QUEUE_BOARD_PATH = '/admin/queues';

/**
 * Audits every change made through the board (retry, promote, clean, pause, remove...) once it has
 * succeeded: the action is the last segment of the board's API path, the target the job when one is named.
 */
function auditChanges(ctx: AppContext): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    const path = req.path;
    res.on('finish', () => {
      if (res.statusCode >= 400) return;
      const job = /^\/api\/queues\/[^/]+\/([^/]+)\/[a-z-]+$/i.exec(path)?.[1];
      const action = path.split('/').filter(Boolean).pop() ?? 'change';
      audit(ctx, req, `queues.${action}`, job ? `job:${job}` : null, { method: req.method, path }).catch((err: Error) =>
        ctx.logger.error({ err: err.message, path }, 'queue board audit failed'),
      );
    });
    next();
  };
}

/**
 * Admins only; anyone else (guests, customers) gets exactly what an unknown page gets (the client's own Not
 * Found), so the board is not advertised. API keys only work under /api, so they never reach it.
 */
const adminsOnly: RequestHandler = (req, _res, next) =>
  next(req.user?.role === 'admin' && !req.apiKeyId ? undefined : 'router');

/**
 * The BullMQ board (@bull-board) on the API's queue, for a browser session of an admin. Its changes pass the
 * app's XSRF check (its client sends the XSRF-TOKEN cookie back as X-XSRF-TOKEN) and are audited.
 */
export function queueBoardRouter(ctx: AppContext): Router {
  const adapter = new ExpressAdapter();
  adapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: [new BullMQAdapter(ctx.queue)],
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'Image Studio queues' } },
  });
  const router = Router();
  router.use(QUEUE_BOARD_PATH, adminsOnly, auditChanges(ctx), adapter.getRouter() as RequestHandler);
  return router;
}

import { Router, type Request } from 'express';
import { batchListQuerySchema } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { currentUser, requireUser } from '../../http/current-user';
import { requireVerifiedEmail } from '../auth';
import { sendOk } from '../../http/envelope';
import { submitLimit, type SubmitMeta } from '../tools';
import { admitUpload } from '../uploads';
import { readBatchMultipart } from './batch-multipart';
import { streamBatch } from './batch-stream';
import { streamBatchZip } from './batch-zip';
import * as repo from './batches.repository';
import { cancelBatch, getBatch, listBatches, ownedBatch, retryItem, submitBatch } from './batches.service';

function meta(req: Request): SubmitMeta {
  const key = req.get('Idempotency-Key');
  return {
    userId: currentUser(req).id,
    idempotencyKey: key === undefined ? undefined : key,
    requestId: String(req.id),
  };
}

/** Batches: many images through one tool, each an ordinary job; one view, one stream, one ZIP. */
export function batchesRouter(ctx: AppContext): Router {
  const router = Router();
  const submitGuards = [requireVerifiedEmail(ctx), submitLimit(ctx)];
  router.use('/batches', requireUser);

  router.post('/batches', ...submitGuards, admitUpload(ctx), async (req, res) => {
    const upload = await readBatchMultipart(req, res);
    const { batch, replayed } = await submitBatch(ctx, upload, meta(req));
    // A replay answers as the first call did (202), marked as single tool calls mark theirs.
    if (replayed) res.set('Idempotent-Replayed', 'true');
    sendOk(res, batch, {}, 202);
  });

  router.get('/batches', async (req, res) => {
    const { page } = batchListQuerySchema.parse(req.query);
    sendOk(res, await listBatches(ctx, currentUser(req).id, page));
  });

  router.get('/batches/:id', async (req, res) => {
    sendOk(res, await getBatch(ctx, currentUser(req).id, req.params.id));
  });

  router.get('/batches/:id/events', async (req, res) => {
    streamBatch(ctx, req, res, await ownedBatch(ctx, currentUser(req).id, req.params.id));
  });

  router.get('/batches/:id/zip', async (req, res) => {
    const batch = await ownedBatch(ctx, currentUser(req).id, req.params.id);
    streamBatchZip(ctx, res, batch, await repo.itemsOf(ctx.db, [batch.id]));
  });

  router.post('/batches/:id/cancel', async (req, res) => {
    sendOk(res, await cancelBatch(ctx, currentUser(req).id, req.params.id));
  });

  router.post('/batches/:id/items/:itemId/retry', ...submitGuards, async (req, res) => {
    sendOk(
      res,
      await retryItem(ctx, currentUser(req).id, String(req.params.id), String(req.params.itemId), meta(req)),
      {},
      202,
    );
  });

  return router;
}

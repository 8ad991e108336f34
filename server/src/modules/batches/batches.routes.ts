import { Router, type Request } from 'express';
import { routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoutes } from '../../http/route-table';
import { currentUser } from '../../http/current-user';
import { requireVerifiedEmail } from '../auth';
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
export function batchesRouter(ctx: AppContext) {
  const router = Router();
  const submitGuards = [requireVerifiedEmail(ctx), submitLimit(ctx)];
  const r = routes.batches;

  return mountRoutes(router, r, {
    create: {
      handler: async ({ req, res }) => {
        const upload = await readBatchMultipart(req, res);
        const { batch, replayed } = await submitBatch(ctx, upload, meta(req));
        // A replay answers as the first call did (202), marked as single tool calls mark theirs.
        if (replayed) res.set('Idempotent-Replayed', 'true');
        return batch;
      },
      before: [...submitGuards, admitUpload(ctx)],
    },
    list: ({ req, query }) => listBatches(ctx, currentUser(req).id, query.page),
    get: ({ req, params }) => getBatch(ctx, currentUser(req).id, params.id),
    events: async ({ req, res, params }) => {
      streamBatch(ctx, req, res, await ownedBatch(ctx, currentUser(req).id, params.id));
    },
    zip: async ({ req, res, params }) => {
      const batch = await ownedBatch(ctx, currentUser(req).id, params.id);
      streamBatchZip(ctx, req, res, batch, await repo.itemsOf(ctx.db, [batch.id]));
    },
    cancel: ({ req, params }) => cancelBatch(ctx, currentUser(req).id, params.id),
    retryItem: {
      handler: ({ req, params }) => retryItem(ctx, currentUser(req).id, params.id, params.itemId, meta(req)),
      before: submitGuards,
    },
  });
}

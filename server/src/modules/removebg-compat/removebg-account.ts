import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { tenthsToTokens } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/current-user';
import { ledgerRepository } from '../ledger';

/**
 * GET /v1.0/account: remove.bg's account shape with the key owner's balance in tokens as `total` and `payg`
 * (tokens never expire, like remove.bg's pay-as-you-go credits); no subscription or enterprise credits and no
 * free calls exist here, and every size is open to every key.
 */
export async function sendAccount(ctx: AppContext, req: Request, res: Response): Promise<void> {
  const tokens = tenthsToTokens((await ledgerRepository.balanceOf(ctx.db, currentUser(req).id)) ?? 0);
  res.set('Cache-Control', 'no-store').json({
    data: {
      attributes: {
        credits: { total: tokens, subscription: 0, payg: tokens, enterprise: 0 },
        api: { free_calls: 0, sizes: 'all' },
        // Ours, beside remove.bg's fields: what this key may do at once and per minute.
        limits: {
          requests_per_minute: ctx.config.API_KEY_RATE_PER_MINUTE,
          uploads_in_flight_per_key: ctx.services.uploadBudget.limits.perKey,
        },
      },
    },
  });
}

/**
 * POST /v1.0/improve: remove.bg's "send us a badly cut image for training". We take no customer images for
 * training, so the body is not read at all: the answer (the shape remove.bg's clients expect) goes out at once with
 * `Connection: close`, and the connection ends after it (reading the body to drop it took any size, for as long as
 * the client kept sending). One log line says the call was made.
 */
export function sendImprove(req: Request, res: Response): void {
  req.log?.info(
    { userId: currentUser(req).id },
    'remove.bg improve call: nothing stored (no training on customer images)',
  );
  res.set({ 'Cache-Control': 'no-store', Connection: 'close' }).json({ id: randomUUID() });
}

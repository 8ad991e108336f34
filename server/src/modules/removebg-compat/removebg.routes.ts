import { Router, type Request, type Response } from 'express';
import { removeBgRoutes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/current-user';
import { mountRoutes } from '../../http/route-table';
import { assertAffordable } from '../ledger';
import { submitLimit } from '../tools';
import { readToolSettings } from '../tool-definitions';
import { getSettings } from '../catalog';
import { sendAccount, sendImprove } from './removebg-account';
import { removeBgAuth } from './removebg-auth';
import { readRemoveBgBody } from './removebg-body';
import { badField, RemoveBgError, removeBgErrorHandler } from './removebg-errors';
import { parseRemoveBgFields } from './removebg-fields';
import { prepareBackground, prepareInput } from './removebg-input';
import { admitRemoveBgJob, callerGone, failedJobError, refuseWithoutSubject, waitForRemoveBgJob } from './removebg-job';
import { buildAnswer, sendAnswer } from './removebg-reply';
import { cheapestSizePriceTenths, sizePriceTenths } from './removebg-sizes';
import { toolParams } from './removebg-tool-params';

/** POST /v1.0/removebg: checks, charges and runs one background removal, and answers in remove.bg's shape. */
async function removeBackground(ctx: AppContext, req: Request, res: Response): Promise<void> {
  const userId = currentUser(req).id;
  const settings = await getSettings(ctx);
  // Cheap checks before expensive ones: the balance against the cheapest size before the body is read, and
  // against this call's price before an image is downloaded or decoded (an empty key's calls cost no work).
  await assertAffordable(ctx.db, userId, cheapestSizePriceTenths(settings));
  const body = await readRemoveBgBody(ctx, req, res);
  const request = parseRemoveBgFields(body.fields);
  const bgSources = [request.bgColor, request.bgImageUrl, body.bgImageFile].filter((s) => s !== null).length;
  if (bgSources > 1)
    throw badField(
      'multiple_bg_sources',
      'Multiple background sources given',
      'Send only one of bg_color, bg_image_url or bg_image_file.',
    );
  const costTenths = sizePriceTenths(settings, request.size);
  await assertAffordable(ctx.db, userId, costTenths);
  const input = await prepareInput(ctx.config, body, request.size);
  const background =
    request.channels === 'alpha' ? null : await prepareBackground(ctx.config, body, request.bgImageUrl);
  const params = toolParams(await readToolSettings(ctx), {
    request,
    width: input.image.width,
    height: input.image.height,
    hasBackgroundImage: background !== null,
  });
  // A caller who hung up while the body was read or the image fetched and checked is not charged for a job.
  if (callerGone(res)) return;
  const admitted = await admitRemoveBgJob(ctx, {
    userId,
    requestId: String(req.id),
    params,
    costTenths,
    input,
    background,
  });
  const row = await waitForRemoveBgJob(ctx, res, admitted);
  if (!row) return;
  if (row.status !== 'succeeded') throw failedJobError(row);
  await refuseWithoutSubject(ctx, row);
  const answer = await buildAnswer(ctx, row, request);
  sendAnswer(req, res, answer, {
    costTenths,
    reducedTo: input.reducedFrom ? { width: input.image.width, height: input.image.height } : null,
  });
}

/**
 * remove.bg's API (https://www.remove.bg/api) on our pipeline, mounted at /v1.0 outside /api: no envelope, no
 * session, no XSRF; our API keys in `X-Api-Key`; remove.bg's fields, replies and error codes
 * (docs/removebg-api.md). The routes are the `removeBgRoutes` entries of the route table.
 */
export function removeBgRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(removeBgAuth(ctx));
  mountRoutes(router, removeBgRoutes, {
    removeBg: { handler: ({ req, res }) => removeBackground(ctx, req, res), before: [submitLimit(ctx)] },
    account: ({ req, res }) => sendAccount(ctx, req, res),
    improve: ({ req, res }) => sendImprove(req, res),
  });
  router.use((_req, _res, next) => next(new RemoveBgError(404, 'not_found', 'Not found', 'No such endpoint.')));
  router.use(removeBgErrorHandler);
  return router;
}

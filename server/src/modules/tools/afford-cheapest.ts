import type { RequestHandler } from 'express';
import type { JobName } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/current-user';
import { assertAffordable } from '../ledger';
import { cheapestTenths, readToolSettings } from '../tool-definitions';

/**
 * Route guard before an upload is read: 402 when the balance cannot pay for even the cheapest job of `tool`.
 * Cheap checks come first (sign-in, rate, this one indexed read), then reading, downloading and decoding: ten
 * calls from an empty account with a small file that decodes to 25 megapixels once took 30 CPU-seconds to answer
 * 402. The exact price is checked again, under a lock, when the job is admitted.
 */
export function affordCheapest(ctx: AppContext, tool: JobName): RequestHandler {
  return (req, _res, next) => {
    readToolSettings(ctx)
      .then((settings) => assertAffordable(ctx.db, currentUser(req).id, cheapestTenths(tool, settings)))
      .then(() => next(), next);
  };
}

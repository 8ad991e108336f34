import fs from 'node:fs';
import type { Request, RequestHandler, Response } from 'express';
import { LIMITS, PRODUCT_PHOTO_MESSAGES } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { consumeOrThrow } from '../../http/rate-limits';
import { currentUser } from '../auth/auth-guards';
import { MULTIPART_MESSAGES, readForm } from '../uploads/multipart';
import { UPLOAD_MESSAGES } from '../uploads/image-inspect';
import { COMPOSE_FILE_FIELDS, type ComposeRequest } from './compose.service';

/** At most COMPOSE_RATE_PER_MINUTE re-compositions per user per minute (counted in Redis); 429 beyond. */
export function composeLimit(ctx: AppContext): RequestHandler {
  const limiter = ctx.services.rateLimits.named('compose', ctx.config.COMPOSE_RATE_PER_MINUTE, 60);
  return (req, _res, next) => {
    consumeOrThrow(limiter, currentUser(req).id, PRODUCT_PHOTO_MESSAGES.tooManyCompositions).then(() => next(), next);
  };
}

/**
 * A re-composition's form: the option fields and at most one file in each of `background_image` and `matte`
 * (each at most an upload's size), through the API's one multipart reader; a JSON body (no files) too.
 */
export async function readComposeForm(req: Request, res: Response): Promise<ComposeRequest> {
  if (!req.is('multipart/form-data')) return { fields: req.body ?? {}, files: {} };
  const maxBytes = LIMITS.uploadMaxBytes;
  const form = await readForm(req, res, {
    files: Object.fromEntries(
      COMPOSE_FILE_FIELDS.map((field) => [
        field,
        { maxCount: 1, tooMany: { [field]: [MULTIPART_MESSAGES.oneImage] }, maxBytes, oversize: 'refuse' as const },
      ]),
    ),
    maxTotalBytes: maxBytes * COMPOSE_FILE_FIELDS.length,
    tooLarge: UPLOAD_MESSAGES.tooLarge,
    wrongField: (got) => ({ [got]: [MULTIPART_MESSAGES.wrongField(COMPOSE_FILE_FIELDS.join('" or "'), got)] }),
    notMultipart: { _: [MULTIPART_MESSAGES.notMultipart] },
  });
  const files: Record<string, Buffer> = {};
  for (const f of form.files) if (f.path) files[f.field] = await fs.promises.readFile(f.path);
  return { fields: form.fields, files };
}

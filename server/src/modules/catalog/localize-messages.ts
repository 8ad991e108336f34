import { Router, type Response } from 'express';
import type { AppContext } from '../../context';
import { requestParam } from './catalog.http';
import { translatorFor, type Translator } from './localization.service';

type Body = { message?: unknown; errors?: Record<string, unknown> } | null | undefined;

function translateBody(body: Body, translate: Translator): Body {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const out: Record<string, unknown> = { ...body };
  if (typeof body.message === 'string') out.message = translate(body.message) ?? body.message;
  if (body.errors && typeof body.errors === 'object') {
    out.errors = Object.fromEntries(
      Object.entries(body.errors).map(([field, list]) => [field, Array.isArray(list) ? list.map((m) => (typeof m === 'string' ? (translate(m) ?? m) : m)) : list]),
    );
  }
  return out;
}

/**
 * Server messages in the request's language (docs/api-conventions.md#currency-and-lang_id): when
 * `lang_id` names a non-default language, the `message` and the `errors` lists of every JSON reply sent
 * after this point (routes and the error handler) are translated from their English text. Mounted as
 * the first /api router, so every module gets it by adding its messages to
 * migrations/seeds/strings/server.json.
 */
export function localizeMessagesRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(async (req, res, next) => {
    const langId = requestParam(req, 'lang_id');
    if (langId === undefined) return next();
    const translate = await translatorFor(ctx, langId);
    if (translate) {
      const json = res.json.bind(res) as (body: unknown) => Response;
      res.json = (body: unknown) => json(translateBody(body as Body, translate));
    }
    next();
  });
  return router;
}

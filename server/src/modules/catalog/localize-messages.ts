import { Router, type Response } from 'express';
import type { AppContext } from '../../context';
import { catalogCache } from './catalog.cache';
import type { LanguageRow } from './localization.repository';
import { listLanguageRows, pickRequestLanguage, translatorFor, type Translator } from './localization.service';

type Body = { message?: unknown; errors?: Record<string, unknown> } | null | undefined;

function translateBody(body: Body, translate: Translator): Body {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const out: Record<string, unknown> = { ...body };
  if (typeof body.message === 'string') out.message = translate(body.message) ?? body.message;
  if (body.errors && typeof body.errors === 'object') {
    out.errors = Object.fromEntries(
      Object.entries(body.errors).map(([field, list]) => [
        field,
        Array.isArray(list) ? list.map((m) => (typeof m === 'string' ? (translate(m) ?? m) : m)) : list,
      ]),
    );
  }
  return out;
}

/**
 * Server messages in the request's language (docs/api-conventions.md#currency-and-lang_id): the
 * `message` and the `errors` lists of every JSON reply sent after this point (routes and the error
 * handler) are translated from their English text into the language of `lang_id` (query, body or
 * multipart field), else of Accept-Language. The language is
 * picked when the reply is sent, so a `lang_id` in a body parsed later (JSON, multipart) still counts.
 * Mounted as the first /api router, so every module gets it by adding its messages to
 * migrations/seeds/strings/server.json.
 */
export function localizeMessagesRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(async (req, res, next) => {
    // One cached read per request (the translators of every language are built once per catalogue version).
    const { languages, translators } = await messageTranslators(ctx);
    if (translators.size > 0) {
      const json = res.json.bind(res) as (body: unknown) => Response;
      res.json = (body: unknown) => {
        // Most replies carry neither a message nor field errors: nothing to pick a language for.
        if (!hasMessages(body as Body)) return json(body);
        const language = pickRequestLanguage(languages, req);
        const translate = language ? translators.get(language.id) : undefined;
        return json(translate ? translateBody(body as Body, translate) : body);
      };
    }
    next();
  });
  return router;
}

function hasMessages(body: Body): boolean {
  return !!body && typeof body === 'object' && (typeof body.message === 'string' || !!body.errors);
}

/** Every language with the translator of each non-default one, from the catalogue cache. */
function messageTranslators(
  ctx: AppContext,
): Promise<{ languages: LanguageRow[]; translators: Map<number, Translator> }> {
  return catalogCache(ctx).get('message-translators', async () => {
    const languages = await listLanguageRows(ctx);
    const translators = new Map<number, Translator>();
    for (const language of languages) {
      const translate = language.is_default ? null : await translatorFor(ctx, String(language.id));
      if (translate) translators.set(language.id, translate);
    }
    return { languages, translators };
  });
}

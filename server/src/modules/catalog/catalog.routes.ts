import { Router } from 'express';
import { routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoutes } from '../../http/route-table';
import { cachedReply } from './catalog.cache';
import { cachedGet, requestParam } from './catalog.http';
import { listCountries, listSocialLinks, listStaticPages, staticPageById, staticPageBySlug } from './content.service';
import { listCurrencies } from './currency.service';
import { listLanguages, localizedStrings, resolveLanguage } from './localization.service';
import { getSettings } from './settings.service';

/**
 * The content calls (settings, languages, strings, currencies, countries, pages): GET only, served from
 * the in-process catalog cache with an ETag (304 on If-None-Match) and Cache-Control. Keys hold the
 * resolved language, so `lang_id=2` and `lang_id=de` share one entry.
 */
export function catalogRouter(ctx: AppContext) {
  const router = Router();
  const r = routes.catalog;
  return mountRoutes(router, r, {
    settings: cachedGet(ctx, () => cachedReply(ctx, 'settings', () => getSettings(ctx))),
    languages: cachedGet(ctx, () => cachedReply(ctx, 'languages', () => listLanguages(ctx))),
    currencies: cachedGet(ctx, () => cachedReply(ctx, 'currencies', () => listCurrencies(ctx))),
    localizations: cachedGet(ctx, async (req) => {
      const language = await resolveLanguage(ctx, requestParam(req, 'lang_id'));
      return cachedReply(ctx, `strings:${language.id}`, () => localizedStrings(ctx, String(language.id)));
    }),
    countries: cachedGet(ctx, async (req) => {
      const language = await resolveLanguage(ctx, requestParam(req, 'lang_id'));
      return cachedReply(ctx, `countries:${language.id}`, () => listCountries(ctx, String(language.id)));
    }),
    // Pages in the asked language (lang_id), like the strings: the cache key holds the resolved language.
    staticPages: cachedGet(ctx, async (req) => {
      const language = await resolveLanguage(ctx, requestParam(req, 'lang_id'));
      return cachedReply(ctx, `pages:${language.id}`, () => listStaticPages(ctx, String(language.id)));
    }),
    staticPageBySlug: cachedGet(ctx, async (req) => {
      const language = await resolveLanguage(ctx, requestParam(req, 'lang_id'));
      return cachedReply(ctx, `page-slug:${language.id}:${req.params.slug}`, () =>
        staticPageBySlug(ctx, String(req.params.slug), String(language.id)),
      );
    }),
    staticPage: cachedGet(ctx, async (req) => {
      const language = await resolveLanguage(ctx, requestParam(req, 'lang_id'));
      return cachedReply(ctx, `page:${language.id}:${req.params.id}`, () =>
        staticPageById(ctx, String(req.params.id), String(language.id)),
      );
    }),
    socialLinks: cachedGet(ctx, () => cachedReply(ctx, 'social-links', () => listSocialLinks(ctx))),
  });
}

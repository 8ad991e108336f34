import { notFound } from '../../lib/errors';
import { catalogCache, type CatalogDeps } from './catalog.cache';
import * as repo from './catalog.repository';
import { countryName } from './iso-countries';
import { resolveLanguage } from './localization.service';
import type { CountryView } from '@imagestudio/contracts';
import type { StaticPageView } from '@imagestudio/contracts';
import type { SocialLinkView } from '@imagestudio/contracts';

/** Every country with its title in the request's language where known, sorted by that title. */
export async function listCountries(deps: CatalogDeps, langId: string | undefined): Promise<CountryView[]> {
  const language = await resolveLanguage(deps, langId);
  return catalogCache(deps).get(`countries:${language.code}`, async () => {
    const rows = await repo.listCountries(deps.db);
    const collator = new Intl.Collator(language.code);
    return rows
      .map((c) => ({ id: c.id, title: countryName(c.iso, language.code) ?? c.title, iso: c.iso }))
      .sort((a, b) => collator.compare(a.title, b.title));
  });
}

/**
 * One country by id (ISO numeric code) with its stored English title, from the in-process catalog cache: a
 * profile read or update costs no query for it. Null when no such country exists.
 */
export async function findCountry(
  deps: CatalogDeps,
  id: number,
): Promise<{ id: number; name: string; iso: string } | null> {
  const byId = await catalogCache(deps).get(
    'countries:by-id',
    async () => new Map((await repo.listCountries(deps.db)).map((c) => [Number(c.id), c])),
  );
  const row = byId.get(id);
  return row ? { id: Number(row.id), name: row.title, iso: row.iso } : null;
}

/** A static page as the API sends it (flags 0/1, as the client reads them). */
const toPageDto = (p: repo.StaticPageRow): StaticPageView => ({
  id: p.id,
  slug: p.slug,
  title: p.title,
  content: p.content,
  is_terms: p.is_terms ? 1 : 0,
  is_privacy: p.is_privacy ? 1 : 0,
});

/** Every static page in footer order, in the default language (the page rows' own text). */
function defaultPages(deps: CatalogDeps): Promise<StaticPageView[]> {
  return catalogCache(deps).get('pages', async () => (await repo.listStaticPages(deps.db)).map(toPageDto));
}

/**
 * Every static page in footer order, each in the language `langId` (an id or a code) asks for where the page
 * has a translation to it (`static_page_translations`), else in the default language.
 */
export async function listStaticPages(deps: CatalogDeps, langId?: string): Promise<StaticPageView[]> {
  const language = await resolveLanguage(deps, langId);
  const pages = await defaultPages(deps);
  return catalogCache(deps).get(`pages:${language.code}`, async () => {
    const texts = new Map(
      (await repo.listStaticPageTranslations(deps.db, language.code)).map((t) => [Number(t.page_id), t]),
    );
    return pages.map((page) => {
      const text = texts.get(page.id);
      return text ? { ...page, title: text.title, content: text.content } : page;
    });
  });
}

/** One page by id in the asked language; 404 "Page not found." when missing. */
export async function staticPageById(deps: CatalogDeps, id: string, langId?: string): Promise<StaticPageView> {
  const page = (await listStaticPages(deps, langId)).find((p) => String(p.id) === id);
  if (!page) throw notFound('Page not found.');
  return page;
}

/** One page by slug in the asked language; 404 "Page not found." when missing. */
export async function staticPageBySlug(deps: CatalogDeps, slug: string, langId?: string): Promise<StaticPageView> {
  const page = (await listStaticPages(deps, langId)).find((p) => p.slug === slug);
  if (!page) throw notFound('Page not found.');
  return page;
}

/** The footer's social links in order. */
export function listSocialLinks(deps: CatalogDeps): Promise<SocialLinkView[]> {
  return catalogCache(deps).get('social-links', async () =>
    (await repo.listSocialLinks(deps.db)).map(({ id, title, url, icon }) => ({ id, title, url, icon })),
  );
}

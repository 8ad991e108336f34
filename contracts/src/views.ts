/**
 * Reply shapes of the catalogue and profile calls, declared once: the server builds them and the
 * client reads them. Types only, inferred from the schemas in api-schemas.ts and catalog-schemas.ts (no runtime
 * code), so importing them costs the client nothing.
 */
import type { z } from 'zod';
import type { profileViewSchema } from './api-schemas';
import type {
  countryViewSchema,
  currencyViewSchema,
  languageViewSchema,
  packViewSchema,
  socialLinkViewSchema,
  staticPageViewSchema,
} from './catalog-schemas';

/** GET /api/countries: one country, its title in the request's language where known. */
export type CountryView = z.infer<typeof countryViewSchema>;

/** GET /api/static-pages, /api/static-pages/{id} and /api/static-pages/slug/{slug}: a static page (0/1 flags as the client has always read them). */
export type StaticPageView = z.infer<typeof staticPageViewSchema>;

/** GET /api/social-links: one footer link. */
export type SocialLinkView = z.infer<typeof socialLinkViewSchema>;

/** GET /api/currencies: a currency and its value against the base currency; `default` 1 for the base. */
export type CurrencyView = z.infer<typeof currencyViewSchema>;

/** GET /api/languages: an interface language; `default` 1 for the default one. */
export type LanguageView = z.infer<typeof languageViewSchema>;

/** GET /api/packs: a token pack priced in the requested currency. */
export type PackView = z.infer<typeof packViewSchema>;

/** GET /api/user/profile: the signed-in user (the developer API's documented reply schema). */
export type ProfileView = z.infer<typeof profileViewSchema>;

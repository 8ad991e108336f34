/**
 * Reply shapes of the catalogue and profile calls, declared once: the server builds them and the
 * client reads them. Types only (no runtime code), so importing them costs the client nothing.
 */
import type { z } from 'zod';
import type { profileViewSchema } from './api-schemas';

/** GET /api/countries: one country, its title in the request's language where known. */
export interface CountryView {
  id: number;
  title: string;
  /** ISO 3166-1 alpha-2, upper case. */
  iso: string;
}

/** GET /api/static-pages, /api/static-pages/{id} and /api/static-pages/slug/{slug}: a static page (0/1 flags as the client has always read them). */
export interface StaticPageView {
  id: number;
  slug: string | null;
  title: string;
  content: string;
  is_terms: 0 | 1;
  is_privacy: 0 | 1;
}

/** GET /api/social-links: one footer link. */
export interface SocialLinkView {
  id: number;
  title: string;
  url: string;
  icon: string;
}

/** GET /api/currencies: a currency and its value against the base currency; `default` 1 for the base. */
export interface CurrencyView {
  code: string;
  value: number;
  symbol: string;
  default: 0 | 1;
}

/** GET /api/languages: an interface language; `default` 1 for the default one. */
export interface LanguageView {
  id: number;
  code: string;
  title: string;
  default: 0 | 1;
}

/** GET /api/packs: a token pack priced in the requested currency. */
export interface PackView {
  id: number;
  title: string;
  description: string;
  /** Price before VAT in the requested currency's major units. */
  price: number;
  /** Tokens the pack credits. */
  credits: number;
  /** What the pack saves against the same tokens bought as a custom amount, before VAT (0: nothing). */
  saving: number;
}

/** GET /api/user/profile: the signed-in user (the developer API's documented reply schema). */
export type ProfileView = z.infer<typeof profileViewSchema>;

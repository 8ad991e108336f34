import { z } from 'zod';
import {
  countryViewSchema,
  currencyViewSchema,
  languageViewSchema,
  localizedStringsSchema,
  packViewSchema,
  quoteSchema,
  socialLinkViewSchema,
  staticPageViewSchema,
  tokenPricingSchema,
} from '../catalog-schemas';
import { settingsSchema } from '../settings';
import { defineRoutes } from './route';

const currency = z.object({ currency: z.string().optional() });
// A language id or code; the client sends the id as a number.
const lang = z.object({ lang_id: z.coerce.string().optional() });

/**
 * The catalogue: public GETs served before sessions from the in-process cache (ETag, 304). The query
 * parameters are read by the handlers (an unknown language falls back, an unknown currency is a 422 of its own).
 */
export const catalogRoutes = defineRoutes('catalog', {
  settings: {
    tag: 'Catalog',
    summary: 'Public settings',
    auth: 'public',
    reply: { kind: 'json', payload: settingsSchema },
  },
  languages: {
    tag: 'Catalog',
    summary: 'Languages',
    auth: 'public',
    reply: { kind: 'json', payload: z.array(languageViewSchema) },
  },
  currencies: {
    tag: 'Catalog',
    summary: 'Currencies',
    auth: 'public',
    reply: { kind: 'json', payload: z.array(currencyViewSchema) },
  },
  localizations: {
    tag: 'Catalog',
    summary: 'UI strings of a language',
    auth: 'public',
    query: lang,
    validatedBy: 'handler',
    reply: { kind: 'json', payload: localizedStringsSchema },
  },
  countries: {
    tag: 'Catalog',
    summary: 'Countries in a language',
    auth: 'public',
    query: lang,
    validatedBy: 'handler',
    reply: { kind: 'json', payload: z.array(countryViewSchema) },
  },
  staticPages: {
    tag: 'Catalog',
    summary: 'Static pages',
    auth: 'public',
    reply: { kind: 'json', payload: z.array(staticPageViewSchema) },
  },
  staticPageBySlug: {
    tag: 'Catalog',
    summary: 'A static page by slug',
    auth: 'public',
    reply: { kind: 'json', payload: staticPageViewSchema },
  },
  staticPage: {
    tag: 'Catalog',
    summary: 'A static page by id',
    auth: 'public',
    reply: { kind: 'json', payload: staticPageViewSchema },
  },
  socialLinks: {
    tag: 'Catalog',
    summary: 'Social links',
    auth: 'public',
    reply: { kind: 'json', payload: z.array(socialLinkViewSchema) },
  },
  packs: {
    tag: 'Catalog',
    summary: 'Token packs in a currency',
    auth: 'public',
    query: currency,
    validatedBy: 'handler',
    reply: { kind: 'json', payload: z.array(packViewSchema) },
  },
  tokenPricing: {
    tag: 'Catalog',
    summary: 'Price tiers in a currency',
    auth: 'public',
    query: currency,
    validatedBy: 'handler',
    reply: { kind: 'json', payload: tokenPricingSchema },
  },
  tokenQuote: {
    tag: 'Catalog',
    summary: 'Price of a number of tokens',
    auth: 'public',
    reply: { kind: 'json', payload: quoteSchema },
  },
});

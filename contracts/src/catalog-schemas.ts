import { z } from 'zod';
import { JOB_NAMES } from './tools';
import { UPSCALE_MODELS } from './tools/upscale';

/**
 * zod schemas of the catalogue's replies (languages, currencies, countries, pages, links, packs, prices) and of
 * the tool quote and status. The OpenAPI document is generated from them, and the view types the server fills
 * in and the client reads (views.ts, pricing.ts, jobs.ts) are inferred from them as types only, so those
 * modules stay free of zod in the browser bundle.
 */

/** The 0/1 flags the client has always read (rather than booleans). */
const flag = z.union([z.literal(0), z.literal(1)]);

export const languageViewSchema = z
  .object({
    id: z.number().int(),
    code: z.string().describe('Language code, e.g. en or de'),
    title: z.string(),
    default: flag.describe('1 for the default language'),
  })
  .meta({ id: 'Language' });

export const currencyViewSchema = z
  .object({
    code: z.string().describe('ISO 4217 code, upper case'),
    value: z.number().describe('Units of this currency per 1 unit of the base currency (EUR)'),
    symbol: z.string(),
    default: flag.describe('1 for the base currency'),
  })
  .meta({ id: 'Currency' });

/** The UI strings of a language, by key; a key the language lacks has the default language's text. */
export const localizedStringsSchema = z
  .record(z.string(), z.string())
  .describe('Each UI string by its key (namespace.key), in the language asked or else the default one');

export const countryViewSchema = z
  .object({
    id: z.number().int(),
    title: z.string().describe("The country's name in the language asked, where known"),
    iso: z.string().describe('ISO 3166-1 alpha-2, upper case'),
  })
  .meta({ id: 'Country' });

export const staticPageViewSchema = z
  .object({
    id: z.number().int(),
    slug: z.string().nullable(),
    title: z.string(),
    content: z.string().describe('The page as sanitized HTML'),
    is_terms: flag.describe('1 for the terms of service'),
    is_privacy: flag.describe('1 for the privacy policy'),
  })
  .meta({ id: 'StaticPage' });

export const socialLinkViewSchema = z
  .object({ id: z.number().int(), title: z.string(), url: z.string(), icon: z.string() })
  .meta({ id: 'SocialLink' });

export const packViewSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    description: z.string(),
    price: z.number().describe("Price before VAT in the requested currency's major units"),
    credits: z.number().describe('Tokens the pack credits (exact to 0.1)'),
    saving: z
      .number()
      .describe('What the pack saves against the same tokens bought as a custom amount, before VAT (0: nothing)'),
  })
  .meta({ id: 'Pack' });

export const priceTierSchema = z
  .object({
    min: z.number().describe('Fewest tokens the tier covers (exact to 0.1)'),
    max: z.number().nullable().describe('Most tokens the tier covers; null for the open-ended last tier'),
    price: z.number().describe('Price per token before VAT in the currency, up to 4 decimals'),
  })
  .meta({ id: 'PriceTier' });

export const tokenPricingSchema = z.object({
  currency: z.string(),
  priceTiers: z.array(priceTierSchema),
});

export const quoteSchema = z
  .object({
    tokens: z.number(),
    pricePerToken: z.number(),
    subtotal: z.number(),
    vatPercent: z.number(),
    vat: z.number(),
    total: z.number(),
    currency: z.string(),
  })
  .describe('Money in major units of `currency`: what checkout charges for these tokens, VAT included')
  .meta({ id: 'TokenQuote' });

export const toolQuoteSchema = z
  .object({
    tool: z.enum(JOB_NAMES),
    count: z.number().int(),
    factor: z.number().int().nullable().describe('The upscaling factor priced (null for the other tools)'),
    model: z.enum(UPSCALE_MODELS).nullable().describe('The upscaling model priced (null for the other tools)'),
    unit_price: z.number().describe('Tokens per image (exact to 0.1)'),
    cost: z.number().describe('Tokens the call costs (exact to 0.1)'),
  })
  .meta({ id: 'ToolQuote' });

export const toolStateSchema = z
  .object({
    available: z.boolean().describe('Whether a live worker runs the tool, or one is started for its jobs (onDemand)'),
    provider: z
      .string()
      .nullable()
      .describe('What runs it: an execution provider (cuda, cpu) or remote:<model>; null when no worker is live'),
    onDemand: z
      .literal(true)
      .optional()
      .describe('No worker runs it now, but one is started when a job comes: the first job waits for it to start'),
    precision: z
      .string()
      .optional()
      .describe('What the model computes in (fp32, fp16, int8); absent when unknown or remote'),
    models: z.array(z.string()).describe('The models live workers can run; empty for tools without a choice'),
  })
  .meta({ id: 'ToolState' });

export const toolStatusSchema = z.record(z.enum(JOB_NAMES), toolStateSchema).describe('The state of every tool');

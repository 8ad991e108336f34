import { z } from 'zod';
import { settingsSchema } from './settings';

/**
 * The console's catalog editing (`/api/admin/catalog...`): what `npm run admin` edits (settings, packs, price
 * tiers, currencies, static pages). These schemas only check the shape of a request; the values are checked by
 * the same server functions the CLI calls (server/src/modules/catalog/catalog-admin.service.ts and
 * settings.service.ts), so the console and the CLI refuse and warn alike.
 */

const text = (max: number) => z.string().max(max);

/** PUT /api/admin/catalog/settings/{key}: the value as JSON (numbers, text, arrays, objects). */
export const adminSettingSchema = z.object({ value: z.unknown() });

/** POST /api/admin/catalog/packs: price in EUR (at most 2 decimals; 0 = free), credits in tokens (0.1 steps). */
export const adminPackAddSchema = z.object({
  title: text(200),
  price: text(20),
  credits: text(20),
  description: text(2000).optional(),
});

/** PATCH /api/admin/catalog/packs/{id}: only the fields given change. */
export const adminPackEditSchema = z.object({
  title: text(200).optional(),
  price: text(20).optional(),
  credits: text(20).optional(),
  description: text(2000).optional(),
  hidden: z.boolean().optional(),
});

/** PUT /api/admin/catalog/packs/order: these packs first, in this order. */
export const adminPackOrderSchema = z.object({ ids: z.array(z.number().int().positive()).min(1).max(100) });

/**
 * PUT /api/admin/catalog/tiers: each tier by where it starts and its EUR price per token; each ends 0.1 before
 * the next starts and the last is open ended (as `npm run admin -- tiers set 0.1:0.10 100:0.09`).
 */
export const adminTiersSchema = z.object({
  tiers: z
    .array(z.object({ min: z.number(), price: text(20) }))
    .min(1)
    .max(50),
});

/** PUT /api/admin/catalog/currencies/{code}: units per 1 EUR and, optionally, the symbol. */
export const adminCurrencySchema = z.object({ rate: text(30), symbol: text(10).optional() });

/** PUT /api/admin/catalog/pages/{slug}: the page's HTML (sanitized before it is stored). */
export const adminPageSchema = z.object({
  title: text(200).optional(),
  html: text(500_000),
  is_terms: z.boolean().optional(),
  is_privacy: z.boolean().optional(),
});

export const adminPackViewSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  price: z.string().describe('EUR before VAT, exact decimal text with 2 decimals'),
  credits: z.number().describe('Tokens (exact to 0.1)'),
  position: z.number().int(),
  hidden: z.boolean(),
});
export type AdminPackView = z.infer<typeof adminPackViewSchema>;

export const adminTierViewSchema = z.object({
  min: z.number(),
  max: z.number().nullable().describe('null for the open-ended last tier'),
  price: z.string().describe('EUR per token, exact decimal text'),
});
export type AdminTierView = z.infer<typeof adminTierViewSchema>;

export const adminCurrencyViewSchema = z.object({
  code: z.string(),
  rate: z.string().describe('Units per 1 EUR, exact decimal text'),
  symbol: z.string(),
  is_default: z.boolean(),
  hidden: z.boolean(),
});
export type AdminCurrencyView = z.infer<typeof adminCurrencyViewSchema>;

export const adminPageViewSchema = z.object({
  id: z.number().int(),
  slug: z.string().nullable(),
  title: z.string(),
  html: z.string(),
  is_terms: z.boolean(),
  is_privacy: z.boolean(),
});
export type AdminPageView = z.infer<typeof adminPageViewSchema>;

/** GET /api/admin/catalog, and the reply of every catalog change (the whole catalog after it). */
export const adminCatalogViewSchema = z.object({
  settings: settingsSchema,
  packs: z.array(adminPackViewSchema),
  tiers: z.array(adminTierViewSchema),
  currencies: z.array(adminCurrencyViewSchema),
  pages: z.array(adminPageViewSchema),
  warnings: z
    .array(z.string())
    .describe('What the CLI prints as `warning:` (e.g. a pack dearer than the same tokens as a custom amount)'),
});
export type AdminCatalogView = z.infer<typeof adminCatalogViewSchema>;

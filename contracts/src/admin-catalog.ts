import { z } from 'zod';

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

export interface AdminPackView {
  id: number;
  title: string;
  description: string;
  /** EUR, 2 decimals. */
  price: string;
  credits: number;
  position: number;
  hidden: boolean;
}

export interface AdminTierView {
  min: number;
  max: number | null;
  /** EUR per token. */
  price: string;
}

export interface AdminCurrencyView {
  code: string;
  /** Units per 1 EUR, exact decimal text. */
  rate: string;
  symbol: string;
  is_default: boolean;
  hidden: boolean;
}

export interface AdminPageView {
  id: number;
  slug: string | null;
  title: string;
  html: string;
  is_terms: boolean;
  is_privacy: boolean;
}

/** GET /api/admin/catalog, and the reply of every catalog change (the whole catalog after it). */
export interface AdminCatalogView {
  settings: Record<string, unknown>;
  packs: AdminPackView[];
  tiers: AdminTierView[];
  currencies: AdminCurrencyView[];
  pages: AdminPageView[];
  /** What the CLI prints as `warning:` (e.g. a pack dearer than the same tokens as a custom amount). */
  warnings: string[];
}

import { type AdminCatalogView } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { validationError } from '../../lib/errors';
import {
  catalogAdminService as catalogAdmin,
  catalogRepository as catalogRepo,
  getSettings,
  pricingRepository as pricingRepo,
} from '../catalog';

/** A pack id from the path: 422 on `id` for anything but a positive whole number. */
export function packId(text: string): number {
  if (!/^\d{1,9}$/.test(text)) throw validationError({ id: ['The pack id must be a number'] });
  return Number(text);
}

export const presentPack = (p: pricingRepo.PackRow) => ({
  id: p.id,
  title: p.title,
  description: p.description,
  price: (p.price_cents / 100).toFixed(2),
  credits: p.credits_tenths / 10,
  position: p.position,
  hidden: p.hidden,
});

/** The whole catalog as the console's Catalog page shows it, with the CLI's warnings. */
export async function catalogView(ctx: AppContext): Promise<AdminCatalogView> {
  const [settings, packs, tiers, currencies, pages, warnings] = await Promise.all([
    getSettings(ctx),
    pricingRepo.listPacks(ctx.db),
    pricingRepo.listTiers(ctx.db),
    catalogRepo.listCurrencies(ctx.db),
    catalogRepo.listStaticPages(ctx.db),
    catalogAdmin.dearerPackWarnings(ctx),
  ]);
  return {
    settings,
    packs: packs.map(presentPack),
    tiers: tiers.map((t) => ({
      min: t.min_tenths / 10,
      max: t.max_tenths === null ? null : t.max_tenths / 10,
      price: t.price_eur,
    })),
    currencies: currencies.map((c) => ({
      code: c.code,
      rate: c.value,
      symbol: c.symbol,
      is_default: c.is_default,
      hidden: c.hidden,
    })),
    pages: pages.map((p) => ({
      id: p.id,
      slug: p.slug,
      title: p.title,
      html: p.content,
      is_terms: p.is_terms,
      is_privacy: p.is_privacy,
    })),
    warnings,
  };
}

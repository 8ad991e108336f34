import type { Request, Router } from 'express';
import {
  adminCurrencySchema,
  adminPackAddSchema,
  adminPackEditSchema,
  adminPackOrderSchema,
  adminPageSchema,
  adminSettingSchema,
  adminTiersSchema,
  type AdminCatalogView,
} from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { sendOk } from '../../http/envelope';
import { validationError } from '../../lib/errors';
import {
  catalogAdminService as catalogAdmin,
  catalogRepository as catalogRepo,
  getSettings,
  pricingRepository as pricingRepo,
  updateSetting,
} from '../catalog';
import { audit } from './admin-audit';
import { requireReauth } from './admin-guard';

const param = (req: Request, name: string) => String(req.params[name] ?? '');

/** A pack id from the path: 422 on `id` for anything but a positive whole number. */
function packId(req: Request): number {
  const text = param(req, 'id');
  if (!/^\d{1,9}$/.test(text)) throw validationError({ id: ['The pack id must be a number'] });
  return Number(text);
}

const presentPack = (p: pricingRepo.PackRow) => ({
  id: p.id,
  title: p.title,
  description: p.description,
  price: (p.price_cents / 100).toFixed(2),
  credits: p.credits_tenths / 10,
  position: p.position,
  hidden: p.hidden,
});

/** The whole catalog as the console's Catalog page shows it, with the CLI's warnings. */
async function catalogView(ctx: AppContext): Promise<AdminCatalogView> {
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

/**
 * Catalog editing in the console (docs/operations.md#catalog), relative to /api/admin and behind its guard:
 * the same changes as `npm run admin` through the same validating functions, each behind a fresh password
 * confirmation and written to the audit log with before and after. Every change answers the whole catalog
 * afterwards, warnings included, so the page shows what the CLI would print.
 */
export function addCatalogRoutes(router: Router, ctx: AppContext): void {
  router.get('/catalog', async (_req, res) => {
    sendOk(res, await catalogView(ctx));
  });

  router.put('/catalog/settings/:key', requireReauth, async (req, res) => {
    const { value } = adminSettingSchema.parse(req.body);
    const key = param(req, 'key');
    const before = (await getSettings(ctx)) as Record<string, unknown>;
    const after = (await updateSetting(ctx, key, value)) as Record<string, unknown>;
    await audit(ctx, req, 'catalog.settings.set', `setting:${key}`, {
      before: { value: before[key] },
      after: { value: after[key] },
    });
    sendOk(res, await catalogView(ctx));
  });

  router.post('/catalog/packs', requireReauth, async (req, res) => {
    const input = adminPackAddSchema.parse(req.body);
    const pack = await catalogAdmin.addPack(ctx, input);
    await audit(ctx, req, 'catalog.packs.add', `pack:${pack.id}`, { before: null, after: presentPack(pack) });
    sendOk(res, await catalogView(ctx), {}, 201);
  });

  // Before /packs/:id, so "order" is not read as an id.
  router.put('/catalog/packs/order', requireReauth, async (req, res) => {
    const { ids } = adminPackOrderSchema.parse(req.body);
    const before = (await pricingRepo.listPacks(ctx.db)).map((p) => p.id);
    const packs = await catalogAdmin.orderPacks(ctx, ids);
    await audit(ctx, req, 'catalog.packs.order', null, {
      before: { order: before },
      after: { order: packs.map((p) => p.id) },
    });
    sendOk(res, await catalogView(ctx));
  });

  router.patch('/catalog/packs/:id', requireReauth, async (req, res) => {
    const id = packId(req);
    const input = adminPackEditSchema.parse(req.body);
    const before = (await pricingRepo.listPacks(ctx.db)).find((p) => p.id === id);
    const pack = await catalogAdmin.editPack(ctx, id, input);
    await audit(ctx, req, 'catalog.packs.edit', `pack:${pack.id}`, {
      before: before ? presentPack(before) : null,
      after: presentPack(pack),
    });
    sendOk(res, await catalogView(ctx));
  });

  router.put('/catalog/tiers', requireReauth, async (req, res) => {
    const { tiers } = adminTiersSchema.parse(req.body);
    const before = (await catalogView(ctx)).tiers;
    const after = catalogAdmin.tiersFromStarts(tiers);
    await catalogAdmin.setTiers(ctx, after);
    await audit(ctx, req, 'catalog.tiers.set', null, { before: { tiers: before }, after: { tiers: after } });
    sendOk(res, await catalogView(ctx));
  });

  router.put('/catalog/currencies/:code', requireReauth, async (req, res) => {
    const { rate, symbol } = adminCurrencySchema.parse(req.body);
    const code = param(req, 'code').toUpperCase();
    const before = (await catalogRepo.listCurrencies(ctx.db)).find((c) => c.code === code);
    await catalogAdmin.setCurrency(ctx, code, rate, symbol);
    await audit(ctx, req, 'catalog.currency.set', `currency:${code}`, {
      before: before ? { rate: before.value, symbol: before.symbol } : null,
      after: { rate, symbol: symbol ?? before?.symbol ?? null },
    });
    sendOk(res, await catalogView(ctx));
  });

  router.post('/catalog/currencies/:code/default', requireReauth, async (req, res) => {
    const code = param(req, 'code').toUpperCase();
    const before = (await catalogRepo.listCurrencies(ctx.db)).find((c) => c.is_default)?.code ?? null;
    await catalogAdmin.setDefaultCurrency(ctx, code);
    await audit(ctx, req, 'catalog.currency.default', `currency:${code}`, {
      before: { default: before },
      after: { default: code },
    });
    sendOk(res, await catalogView(ctx));
  });

  for (const [path, hidden] of [
    ['hide', true],
    ['unhide', false],
  ] as const) {
    router.post(`/catalog/currencies/:code/${path}`, requireReauth, async (req, res) => {
      const code = param(req, 'code').toUpperCase();
      await catalogAdmin.setCurrencyHidden(ctx, code, hidden);
      await audit(ctx, req, `catalog.currency.${path}`, `currency:${code}`, {
        before: { hidden: !hidden },
        after: { hidden },
      });
      sendOk(res, await catalogView(ctx));
    });
  }

  router.put('/catalog/pages/:slug', requireReauth, async (req, res) => {
    const input = adminPageSchema.parse(req.body);
    const slug = param(req, 'slug');
    const before = (await catalogRepo.listStaticPages(ctx.db)).find((p) => p.slug === slug);
    const id = await catalogAdmin.savePage(ctx, {
      slug,
      title: input.title,
      html: input.html,
      isTerms: input.is_terms,
      isPrivacy: input.is_privacy,
    });
    const after = (await catalogRepo.listStaticPages(ctx.db)).find((p) => p.id === id);
    const summary = (p: catalogRepo.StaticPageRow | undefined) =>
      p ? { title: p.title, chars: p.content.length, is_terms: p.is_terms, is_privacy: p.is_privacy } : null;
    await audit(ctx, req, 'catalog.pages.set', `page:${slug}`, { before: summary(before), after: summary(after) });
    sendOk(res, await catalogView(ctx));
  });
}

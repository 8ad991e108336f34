import type { Router } from 'express';
import { routes, type AdminCatalogView } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoute } from '../../http/route';
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

/** A pack id from the path: 422 on `id` for anything but a positive whole number. */
function packId(text: string): number {
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
  const r = routes.admin;
  const reauth = { before: [requireReauth] };
  mountRoute(router, r.catalog, () => catalogView(ctx));

  mountRoute(
    router,
    r.catalogSetting,
    async ({ req, params: { key }, body: { value } }) => {
      const before = (await getSettings(ctx)) as Record<string, unknown>;
      const after = (await updateSetting(ctx, key, value)) as Record<string, unknown>;
      await audit(ctx, req, 'catalog.settings.set', `setting:${key}`, {
        before: { value: before[key] },
        after: { value: after[key] },
      });
      return catalogView(ctx);
    },
    reauth,
  );

  mountRoute(
    router,
    r.catalogAddPack,
    async ({ req, body }) => {
      const pack = await catalogAdmin.addPack(ctx, body);
      await audit(ctx, req, 'catalog.packs.add', `pack:${pack.id}`, { before: null, after: presentPack(pack) });
      return catalogView(ctx);
    },
    reauth,
  );

  // Before /packs/{id}, so "order" is not read as an id.
  mountRoute(
    router,
    r.catalogOrderPacks,
    async ({ req, body: { ids } }) => {
      const before = (await pricingRepo.listPacks(ctx.db)).map((p) => p.id);
      const packs = await catalogAdmin.orderPacks(ctx, ids);
      await audit(ctx, req, 'catalog.packs.order', null, {
        before: { order: before },
        after: { order: packs.map((p) => p.id) },
      });
      return catalogView(ctx);
    },
    reauth,
  );

  mountRoute(
    router,
    r.catalogEditPack,
    async ({ req, params, body }) => {
      const id = packId(params.id);
      const before = (await pricingRepo.listPacks(ctx.db)).find((p) => p.id === id);
      const pack = await catalogAdmin.editPack(ctx, id, body);
      await audit(ctx, req, 'catalog.packs.edit', `pack:${pack.id}`, {
        before: before ? presentPack(before) : null,
        after: presentPack(pack),
      });
      return catalogView(ctx);
    },
    reauth,
  );

  mountRoute(
    router,
    r.catalogTiers,
    async ({ req, body: { tiers } }) => {
      const before = (await catalogView(ctx)).tiers;
      const after = catalogAdmin.tiersFromStarts(tiers);
      await catalogAdmin.setTiers(ctx, after);
      await audit(ctx, req, 'catalog.tiers.set', null, { before: { tiers: before }, after: { tiers: after } });
      return catalogView(ctx);
    },
    reauth,
  );

  mountRoute(
    router,
    r.catalogCurrency,
    async ({ req, params, body: { rate, symbol } }) => {
      const code = params.code.toUpperCase();
      const before = (await catalogRepo.listCurrencies(ctx.db)).find((c) => c.code === code);
      await catalogAdmin.setCurrency(ctx, code, rate, symbol);
      await audit(ctx, req, 'catalog.currency.set', `currency:${code}`, {
        before: before ? { rate: before.value, symbol: before.symbol } : null,
        after: { rate, symbol: symbol ?? before?.symbol ?? null },
      });
      return catalogView(ctx);
    },
    reauth,
  );

  mountRoute(
    router,
    r.catalogDefaultCurrency,
    async ({ req, params }) => {
      const code = params.code.toUpperCase();
      const before = (await catalogRepo.listCurrencies(ctx.db)).find((c) => c.is_default)?.code ?? null;
      await catalogAdmin.setDefaultCurrency(ctx, code);
      await audit(ctx, req, 'catalog.currency.default', `currency:${code}`, {
        before: { default: before },
        after: { default: code },
      });
      return catalogView(ctx);
    },
    reauth,
  );

  for (const [route, path, hidden] of [
    [r.catalogHideCurrency, 'hide', true],
    [r.catalogUnhideCurrency, 'unhide', false],
  ] as const) {
    mountRoute(
      router,
      route,
      async ({ req, params }) => {
        const code = params.code.toUpperCase();
        await catalogAdmin.setCurrencyHidden(ctx, code, hidden);
        await audit(ctx, req, `catalog.currency.${path}`, `currency:${code}`, {
          before: { hidden: !hidden },
          after: { hidden },
        });
        return catalogView(ctx);
      },
      reauth,
    );
  }

  mountRoute(
    router,
    r.catalogPage,
    async ({ req, params: { slug }, body: input }) => {
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
      return catalogView(ctx);
    },
    reauth,
  );
}

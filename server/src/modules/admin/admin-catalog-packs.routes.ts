import type { Router } from 'express';
import { routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoute } from '../../http/route';
import { catalogAdminService as catalogAdmin, pricingRepository as pricingRepo } from '../catalog';
import { audit } from './admin-audit';
import { catalogView, packId, presentPack } from './admin-catalog-view';
import { requireReauth } from './admin-guard';

/** The console's token packs and volume tiers (see addCatalogRoutes). */
export function addPackRoutes(router: Router, ctx: AppContext): void {
  const r = routes.admin;
  const reauth = { before: [requireReauth] };
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
}

import type { AppContext } from '../../context';
import { catalogAdminService as catalogAdmin, pricingRepository as pricingRepo } from '../catalog';
import { audit } from './admin-audit';
import { catalogView, packId, presentPack } from './admin-catalog-view';
import { type AdminHandlers, REAUTH } from './admin-handlers';

/** The console's token packs and volume tiers (see catalogHandlers). */
export function packHandlers(ctx: AppContext) {
  return {
    catalogAddPack: {
      handler: async ({ req, body }) => {
        const pack = await catalogAdmin.addPack(ctx, body);
        await audit(ctx, req, 'catalog.packs.add', `pack:${pack.id}`, { before: null, after: presentPack(pack) });
        return catalogView(ctx);
      },
      before: REAUTH,
    },

    // Before /packs/{id}, so "order" is not read as an id.
    catalogOrderPacks: {
      handler: async ({ req, body: { ids } }) => {
        const before = (await pricingRepo.listPacks(ctx.db)).map((p) => p.id);
        const packs = await catalogAdmin.orderPacks(ctx, ids);
        await audit(ctx, req, 'catalog.packs.order', null, {
          before: { order: before },
          after: { order: packs.map((p) => p.id) },
        });
        return catalogView(ctx);
      },
      before: REAUTH,
    },

    catalogEditPack: {
      handler: async ({ req, params, body }) => {
        const id = packId(params.id);
        const before = (await pricingRepo.listPacks(ctx.db)).find((p) => p.id === id);
        const pack = await catalogAdmin.editPack(ctx, id, body);
        await audit(ctx, req, 'catalog.packs.edit', `pack:${pack.id}`, {
          before: before ? presentPack(before) : null,
          after: presentPack(pack),
        });
        return catalogView(ctx);
      },
      before: REAUTH,
    },

    catalogTiers: {
      handler: async ({ req, body: { tiers } }) => {
        const before = (await catalogView(ctx)).tiers;
        const after = catalogAdmin.tiersFromStarts(tiers);
        await catalogAdmin.setTiers(ctx, after);
        await audit(ctx, req, 'catalog.tiers.set', null, { before: { tiers: before }, after: { tiers: after } });
        return catalogView(ctx);
      },
      before: REAUTH,
    },
  } satisfies AdminHandlers;
}

import type { Router } from 'express';
import { routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoute } from '../../http/route';
import { catalogAdminService as catalogAdmin, catalogRepository as catalogRepo } from '../catalog';
import { audit } from './admin-audit';
import { catalogView } from './admin-catalog-view';
import { requireReauth } from './admin-guard';

/** The console's currencies: rate and symbol, the default, hidden or shown (see addCatalogRoutes). */
export function addCurrencyRoutes(router: Router, ctx: AppContext): void {
  const r = routes.admin;
  const reauth = { before: [requireReauth] };
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
}

import type { Request } from 'express';
import type { AppContext } from '../../context';
import { catalogAdminService as catalogAdmin, catalogRepository as catalogRepo } from '../catalog';
import { audit } from './admin-audit';
import { catalogView } from './admin-catalog-view';
import { type AdminHandlers, REAUTH } from './admin-handlers';

/** The console's currencies: rate and symbol, the default, hidden or shown (see catalogHandlers). */
export function currencyHandlers(ctx: AppContext) {
  const setHidden = async (req: Request, given: string, hidden: boolean) => {
    const code = given.toUpperCase();
    await catalogAdmin.setCurrencyHidden(ctx, code, hidden);
    await audit(ctx, req, `catalog.currency.${hidden ? 'hide' : 'unhide'}`, `currency:${code}`, {
      before: { hidden: !hidden },
      after: { hidden },
    });
    return catalogView(ctx);
  };

  return {
    catalogCurrency: {
      handler: async ({ req, params, body: { rate, symbol } }) => {
        const code = params.code.toUpperCase();
        const before = (await catalogRepo.listCurrencies(ctx.db)).find((c) => c.code === code);
        await catalogAdmin.setCurrency(ctx, code, rate, symbol);
        await audit(ctx, req, 'catalog.currency.set', `currency:${code}`, {
          before: before ? { rate: before.value, symbol: before.symbol } : null,
          after: { rate, symbol: symbol ?? before?.symbol ?? null },
        });
        return catalogView(ctx);
      },
      before: REAUTH,
    },

    catalogDefaultCurrency: {
      handler: async ({ req, params }) => {
        const code = params.code.toUpperCase();
        const before = (await catalogRepo.listCurrencies(ctx.db)).find((c) => c.is_default)?.code ?? null;
        await catalogAdmin.setDefaultCurrency(ctx, code);
        await audit(ctx, req, 'catalog.currency.default', `currency:${code}`, {
          before: { default: before },
          after: { default: code },
        });
        return catalogView(ctx);
      },
      before: REAUTH,
    },

    catalogHideCurrency: { handler: ({ req, params }) => setHidden(req, params.code, true), before: REAUTH },
    catalogUnhideCurrency: { handler: ({ req, params }) => setHidden(req, params.code, false), before: REAUTH },
  } satisfies AdminHandlers;
}

import { Router } from 'express';
import { parseTokenAmount, routes } from '@imagestudio/contracts';
import { mountRoutes } from '../../http/route-table';
import type { AppContext } from '../../context';
import { validationError } from '../../lib/errors';
import { cachedReply } from './catalog.cache';
import { cachedGet, requestParam } from './catalog.http';
import { resolveCurrency } from './currency.service';
import { listPacks, quoteTokensIn, tokenPricing } from './pricing.service';

export const INVALID_TOKENS = 'The number of tokens must be between 0.1 and 2000 in steps of 0.1.';

/** Parses `tokens` of a quote with checkout's own parser (parseTokenAmount), else 422 on `tokens`. */
function parseTokens(raw: string | undefined): number {
  const tokens = parseTokenAmount(raw);
  if (tokens === null) throw validationError({ tokens: [INVALID_TOKENS] });
  return tokens;
}

/** Packs and token prices in the request's currency (an unknown code is a 422 here). */
export function pricingRouter(ctx: AppContext) {
  const router = Router();
  return mountRoutes(router, routes.catalog, {
    packs: cachedGet(ctx, async (req) => {
      const currency = await resolveCurrency(ctx, requestParam(req, 'currency'), { strict: true });
      return cachedReply(ctx, `packs:${currency.code}`, () => listPacks(ctx, currency.code));
    }),
    tokenPricing: cachedGet(ctx, async (req) => {
      const currency = await resolveCurrency(ctx, requestParam(req, 'currency'), { strict: true });
      return cachedReply(ctx, `token-pricing:${currency.code}`, () => tokenPricing(ctx, currency.code));
    }),
    tokenQuote: async ({ req }) => {
      const tokens = parseTokens(requestParam(req, 'tokens'));
      const q = await quoteTokensIn(ctx, tokens, requestParam(req, 'currency'));
      const { pricePerToken, subtotal, vatPercent, vat, total, currency } = q;
      return { tokens: q.tokens, pricePerToken, subtotal, vatPercent, vat, total, currency };
    },
  });
}

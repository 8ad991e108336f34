import { Router } from 'express';
import { parseTokenAmount } from '@imagestudio/contracts';
import { sendOk } from '../../http/envelope';
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
export function pricingRouter(ctx: AppContext): Router {
  const router = Router();
  router.get(
    '/packs',
    cachedGet(ctx, async (req) => {
      const currency = await resolveCurrency(ctx, requestParam(req, 'currency'), { strict: true });
      return cachedReply(ctx, `packs:${currency.code}`, () => listPacks(ctx, currency.code));
    }),
  );
  router.get(
    '/token-pricing',
    cachedGet(ctx, async (req) => {
      const currency = await resolveCurrency(ctx, requestParam(req, 'currency'), { strict: true });
      return cachedReply(ctx, `token-pricing:${currency.code}`, () => tokenPricing(ctx, currency.code));
    }),
  );
  router.get('/token-pricing/quote', async (req, res) => {
    const tokens = parseTokens(requestParam(req, 'tokens'));
    const q = await quoteTokensIn(ctx, tokens, requestParam(req, 'currency'));
    const { pricePerToken, subtotal, vatPercent, vat, total, currency } = q;
    sendOk(res, { tokens: q.tokens, pricePerToken, subtotal, vatPercent, vat, total, currency });
  });
  return router;
}

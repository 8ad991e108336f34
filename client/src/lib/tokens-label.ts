import { formatTokens } from './format';
import type { Translate } from './i18n';

/** "1 token" / "2.5 tokens". */
export function tokensLabel(t: Translate, amount: number): string {
  return t(amount === 1 ? 'client-tools.common.token' : 'client-tools.common.tokens', { n: formatTokens(amount) });
}

/**
 * What a batch cost, in a way that adds up: "Charged: 4 tokens" or, once anything came back, "Charged: 4 tokens,
 * refunded: 1 token" (a retried item is charged again, and the item it replaced refunded).
 */
export function batchMoneyLabel(t: Translate, cost: number, refunded: number): string {
  return refunded > 0
    ? t('client-tools.batch.chargedRefunded', { cost: tokensLabel(t, cost), refunded: tokensLabel(t, refunded) })
    : t('client-tools.batch.charged', { cost: tokensLabel(t, cost) });
}

import { formatTokens } from './format';
import type { Translate } from './i18n';

/** "1 token" / "2.5 tokens". */
export function tokensLabel(t: Translate, amount: number): string {
  return t(amount === 1 ? 'client-tools.common.token' : 'client-tools.common.tokens', { n: formatTokens(amount) });
}

import { observer } from 'mobx-react-lite';
import { Coins } from 'lucide-react';
import { formatTokens } from '../../../lib/format';
import { useStore } from '../../../stores';

/** "Tokens:" and the signed-in user's balance (0 when unknown). */
export const Balance = observer(function Balance() {
  const { profile, t } = useStore();
  return (
    <span className="balance" data-testid="balance">
      <Coins aria-hidden="true" />
      <span>{t('shell.nav.tokens')}</span>
      <strong>{formatTokens(profile.balance)}</strong>
    </span>
  );
});

import { observer } from 'mobx-react-lite';
import { Coins } from 'lucide-react';
import { Skeleton } from '../../../components';
import { formatTokens } from '../../../lib/format';
import { useStore } from '../../../stores';

/**
 * "Tokens:" and the signed-in user's balance. Until the profile has arrived a placeholder stands in for the
 * number: a "0" there would read as an empty account for the second the profile takes on every fresh load.
 */
export const Balance = observer(function Balance() {
  const { profile, t } = useStore();
  const known = profile.profile !== null;
  return (
    <span className="balance" data-testid="balance" aria-busy={known ? undefined : true}>
      <Coins aria-hidden="true" />
      <span>{t('shell.nav.tokens')}</span>
      {known ? (
        <strong>{formatTokens(profile.balance)}</strong>
      ) : (
        <span className="balance__pending" data-testid="balance-pending">
          <Skeleton width="3ch" height="1em" />
        </span>
      )}
    </span>
  );
});

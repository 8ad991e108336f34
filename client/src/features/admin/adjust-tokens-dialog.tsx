import { observer } from 'mobx-react-lite';
import { TextField } from '../../components';
import { formatTokens } from '../../lib/format';
import { plural } from '../../lib/i18n';
import { useStore } from '../../stores';
import { TOKEN_COUNT } from './labels';
import { ReasonDialog } from './reason-dialog';
import { useAdmin } from './use-admin';

/**
 * Grants or deducts tokens with a reason (password confirmed first). The amount is the page's, so opening the
 * dialog again starts from a blank field; `onAdjusted` runs once the server has taken it.
 */
export const AdjustTokensDialog = observer(function AdjustTokensDialog({
  open,
  balance,
  tokens,
  onTokens,
  onCancel,
  onAdjusted,
}: {
  open: boolean;
  /** The customer's balance now, which the lead text states. */
  balance: number;
  tokens: string;
  onTokens(value: string): void;
  onCancel(): void;
  onAdjusted(): void;
}) {
  const { t } = useStore();
  const { user: store } = useAdmin();
  return (
    <ReasonDialog
      open={open}
      title={t('client-admin.users.adjustTitle')}
      lead={t('client-admin.users.adjustLead', { balance: plural(t, TOKEN_COUNT, balance, formatTokens(balance)) })}
      reasonHelp={t('client-admin.reasonHelp')}
      confirmLabel={t('client-admin.users.adjust')}
      busy={store.busy}
      onCancel={onCancel}
      onSubmit={async (reason) => {
        const amount = Number(tokens.trim().replace(',', '.'));
        // A typo never reaches the server as null: the server's own checks (steps of 0.1, not zero) follow.
        if (tokens.trim() === '' || !Number.isFinite(amount))
          return { ok: false, message: t('client-admin.users.tokensInvalid'), fieldErrors: {} };
        const outcome = await store.adjust(amount, reason);
        if (outcome.ok) onAdjusted();
        return outcome;
      }}
    >
      <TextField
        label={t('client-admin.users.tokens')}
        help={t('client-admin.users.tokensHelp')}
        inputMode="decimal"
        required
        value={tokens}
        onChange={(e) => onTokens(e.target.value)}
      />
    </ReasonDialog>
  );
});

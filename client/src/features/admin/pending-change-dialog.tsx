import { observer } from 'mobx-react-lite';
import { ConfirmDialog } from '../../components';
import { useStore } from '../../stores';
import type { ChangeOutcome } from './stores/changes';
import { useAdmin } from './use-admin';

/** An account change on the customer's page that waits for the operator to confirm it. */
export type PendingChange =
  { kind: 'disable' | 'enable' | 'sign-out' } | { kind: 'revoke'; keyId: string; name: string };

/**
 * Asks before a pending account change (disable, enable, sign out everywhere, revoke a key), makes it, hands its
 * outcome and done text to `report`, and closes.
 */
export const PendingChangeDialog = observer(function PendingChangeDialog({
  pending,
  onClose,
  report,
}: {
  pending: PendingChange | null;
  onClose(): void;
  report(outcome: ChangeOutcome, done: string): void;
}) {
  const { t } = useStore();
  const { user: store } = useAdmin();
  const runPending = async () => {
    if (!pending) return;
    if (pending.kind === 'revoke') report(await store.revokeKey(pending.keyId), t('client-admin.users.keyRevoked'));
    else if (pending.kind === 'sign-out') report(await store.signOutEverywhere(), t('client-admin.users.signedOut'));
    else report(await store.setDisabled(pending.kind === 'disable'), t('client-admin.users.saved'));
    onClose();
  };
  const pendingText: Record<PendingChange['kind'], string> = {
    disable: t('client-admin.users.disableLead'),
    enable: t('client-admin.users.enableLead'),
    'sign-out': t('client-admin.users.signOutLead'),
    revoke: t('client-admin.users.revokeLead', { name: pending?.kind === 'revoke' ? pending.name : '' }),
  };
  return (
    <ConfirmDialog
      open={pending !== null}
      title={t('client-admin.users.confirmTitle')}
      confirmLabel={t('client-admin.confirm')}
      cancelLabel={t('client-admin.cancel')}
      closeLabel={t('client-admin.close')}
      busy={store.busy}
      onCancel={onClose}
      onConfirm={() => void runPending()}
    >
      <p>{pending ? pendingText[pending.kind] : ''}</p>
    </ConfirmDialog>
  );
});

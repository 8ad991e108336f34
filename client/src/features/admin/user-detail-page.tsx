import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { useParams } from 'react-router';
import { Button, Card, Skeleton } from '../../components';
import { useStore } from '../../stores';
import type { ChangeOutcome } from './stores/changes';
import { AdjustTokensDialog } from './adjust-tokens-dialog';
import { DepositsTable } from './deposits-table';
import { LedgerTable } from './ledger-table';
import { PendingChangeDialog, type PendingChange } from './pending-change-dialog';
import { UserFacts, UserJobsCard, UserKeysCard } from './user-detail-parts';
import { useAdmin } from './use-admin';

/**
 * /admin/users/:id: profile, balance, ledger, deposits, jobs and API keys; adjust tokens with a reason,
 * disable or enable, sign out everywhere, revoke a key, resend the verification email.
 */
export const UserDetailPage = observer(function UserDetailPage() {
  const { t } = useStore();
  const { user: store } = useAdmin();
  const { id = '' } = useParams();
  const [adjusting, setAdjusting] = useState(false);
  const [tokens, setTokens] = useState('');
  const [pending, setPending] = useState<PendingChange | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    void store.load(id);
  }, [store, id]);
  const user = store.user;
  if (!user || user.id !== id) {
    return (
      <Card className="admin-panel">
        <h1>{t('client-admin.users.detailTitle')}</h1>
        {store.error ? <p role="alert">{store.error}</p> : <Skeleton height={200} />}
      </Card>
    );
  }
  const report = (outcome: ChangeOutcome, done: string) => setNotice(outcome.ok ? done : outcome.message);
  return (
    <div className="admin-stack">
      <Card className="admin-panel">
        <header className="admin-panel__header">
          <h1>{user.email}</h1>
          <div className="admin-actions">
            <Button
              size="sm"
              data-testid="admin-adjust"
              onClick={() => {
                store.startAdjustment();
                setTokens('');
                setAdjusting(true);
              }}
            >
              {t('client-admin.users.adjust')}
            </Button>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => setPending({ kind: user.disabled ? 'enable' : 'disable' })}
            >
              {t(user.disabled ? 'client-admin.users.enable' : 'client-admin.users.disable')}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => setPending({ kind: 'sign-out' })}>
              {t('client-admin.users.signOut')}
            </Button>
            {!user.email_verified ? (
              <Button
                size="sm"
                variant="secondary"
                busy={store.busy}
                onClick={async () => report(await store.resendVerification(), t('client-admin.users.verificationSent'))}
              >
                {t('client-admin.users.resend')}
              </Button>
            ) : null}
          </div>
        </header>
        {notice ? (
          <p className="admin-alert" role="status" data-testid="admin-notice">
            {notice}
          </p>
        ) : null}
        <UserFacts user={user} />
      </Card>
      <Card className="admin-panel">
        <h2>{t('client-admin.ledger.title')}</h2>
        <LedgerTable rows={user.ledger} />
      </Card>
      <Card className="admin-panel">
        <h2>{t('client-admin.payments.title')}</h2>
        <DepositsTable rows={user.deposits} />
      </Card>
      <UserJobsCard jobs={user.jobs} />
      <UserKeysCard
        keys={user.api_keys}
        onRevoke={(key) => setPending({ kind: 'revoke', keyId: key.id, name: key.name })}
      />
      <AdjustTokensDialog
        open={adjusting}
        balance={user.balance}
        tokens={tokens}
        onTokens={setTokens}
        onCancel={() => setAdjusting(false)}
        onAdjusted={() => {
          setAdjusting(false);
          setNotice(t('client-admin.users.adjusted'));
        }}
      />
      <PendingChangeDialog pending={pending} onClose={() => setPending(null)} report={report} />
    </div>
  );
});

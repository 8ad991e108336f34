import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useParams } from 'react-router';
import { Badge, Button, Card, ConfirmDialog, Skeleton, TextField } from '../../components';
import { paths } from '../../config/paths';
import { formatDate, formatDateTime, formatTokens } from '../../lib/format';
import { JOB_TONES } from '../../lib/status-tones';
import { useStore } from '../../stores';
import type { ChangeOutcome } from './stores/changes';
import { DepositsTable } from './deposits-table';
import { JOB_STATUS_LABEL, TOOL_LABEL } from './labels';
import { LedgerTable } from './ledger-table';
import { ReasonDialog } from './reason-dialog';
import { useAdmin } from './use-admin';

type Pending = { kind: 'disable' | 'enable' | 'sign-out' } | { kind: 'revoke'; keyId: string; name: string };

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
  const [pending, setPending] = useState<Pending | null>(null);
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
  const runPending = async () => {
    if (!pending) return;
    if (pending.kind === 'revoke') report(await store.revokeKey(pending.keyId), t('client-admin.users.keyRevoked'));
    else if (pending.kind === 'sign-out') report(await store.signOutEverywhere(), t('client-admin.users.signedOut'));
    else report(await store.setDisabled(pending.kind === 'disable'), t('client-admin.users.saved'));
    setPending(null);
  };
  const pendingText: Record<Pending['kind'], string> = {
    disable: t('client-admin.users.disableLead'),
    enable: t('client-admin.users.enableLead'),
    'sign-out': t('client-admin.users.signOutLead'),
    revoke: t('client-admin.users.revokeLead', { name: pending?.kind === 'revoke' ? pending.name : '' }),
  };
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
        <dl className="admin-facts">
          <dt>{t('client-admin.col.name')}</dt>
          <dd>{`${user.name} ${user.surname}`.trim() || '—'}</dd>
          <dt>{t('client-admin.col.balance')}</dt>
          <dd data-testid="admin-user-balance">{formatTokens(user.balance)}</dd>
          <dt>{t('client-admin.users.ledgerSum')}</dt>
          <dd>{formatTokens(user.ledger_sum)}</dd>
          <dt>{t('client-admin.col.status')}</dt>
          <dd className="admin-badges">
            {user.role === 'admin' ? <Badge tone="accent">{t('client-admin.users.operator')}</Badge> : null}
            <Badge tone={user.disabled ? 'error' : 'success'}>
              {t(user.disabled ? 'client-admin.users.disabled' : 'client-admin.users.active')}
            </Badge>
            <Badge tone={user.email_verified ? 'success' : 'warning'}>
              {t(user.email_verified ? 'client-admin.users.verified' : 'client-admin.users.unverified')}
            </Badge>
          </dd>
          <dt>{t('client-admin.users.phone')}</dt>
          <dd>{user.phone || '—'}</dd>
          <dt>{t('client-admin.users.address')}</dt>
          <dd>{[user.address, user.post_code, user.city].filter(Boolean).join(', ') || '—'}</dd>
          <dt>{t('client-admin.col.created')}</dt>
          <dd>{formatDateTime(user.created_at)}</dd>
          <dt>{t('client-admin.users.sessions')}</dt>
          <dd>{t('client-admin.users.epoch', { n: user.sessions.epoch })}</dd>
        </dl>
      </Card>
      <Card className="admin-panel">
        <h2>{t('client-admin.ledger.title')}</h2>
        <LedgerTable rows={user.ledger} />
      </Card>
      <Card className="admin-panel">
        <h2>{t('client-admin.payments.title')}</h2>
        <DepositsTable rows={user.deposits} />
      </Card>
      <Card className="admin-panel">
        <h2>{t('client-admin.jobs.title')}</h2>
        {user.jobs.length === 0 ? (
          <p className="admin-muted">{t('client-admin.empty')}</p>
        ) : (
          <ul className="admin-list">
            {user.jobs.map((job) => (
              <li key={job.id}>
                <Link to={paths.admin.job(job.id)}>
                  {formatDateTime(job.created_at)} · {t(TOOL_LABEL[job.tool])}
                </Link>{' '}
                <Badge tone={JOB_TONES[job.status]}>{t(JOB_STATUS_LABEL[job.status])}</Badge> {formatTokens(job.cost)}
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card className="admin-panel">
        <h2>{t('client-admin.users.apiKeys')}</h2>
        {user.api_keys.length === 0 ? (
          <p className="admin-muted">{t('client-admin.empty')}</p>
        ) : (
          <ul className="admin-list">
            {user.api_keys.map((key) => (
              <li key={key.id}>
                <strong>{key.name}</strong> <code>{key.prefix}</code> · {formatDate(key.created_at)}{' '}
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => setPending({ kind: 'revoke', keyId: key.id, name: key.name })}
                >
                  {t('client-admin.users.revoke')}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <ReasonDialog
        open={adjusting}
        title={t('client-admin.users.adjustTitle')}
        lead={t('client-admin.users.adjustLead', { balance: formatTokens(user.balance) })}
        confirmLabel={t('client-admin.users.adjust')}
        busy={store.busy}
        onCancel={() => setAdjusting(false)}
        onSubmit={async (reason) => {
          const amount = Number(tokens.trim().replace(',', '.'));
          // A typo never reaches the server as null: the server's own checks (steps of 0.1, not zero) follow.
          if (tokens.trim() === '' || !Number.isFinite(amount))
            return { ok: false, message: t('client-admin.users.tokensInvalid'), fieldErrors: {} };
          const outcome = await store.adjust(amount, reason);
          if (outcome.ok) {
            setAdjusting(false);
            setNotice(t('client-admin.users.adjusted'));
          }
          return outcome;
        }}
      >
        <TextField
          label={t('client-admin.users.tokens')}
          help={t('client-admin.users.tokensHelp')}
          inputMode="decimal"
          required
          value={tokens}
          onChange={(e) => setTokens(e.target.value)}
        />
      </ReasonDialog>
      <ConfirmDialog
        open={pending !== null}
        title={t('client-admin.users.confirmTitle')}
        confirmLabel={t('client-admin.confirm')}
        cancelLabel={t('client-admin.cancel')}
        closeLabel={t('client-admin.close')}
        busy={store.busy}
        onCancel={() => setPending(null)}
        onConfirm={() => void runPending()}
      >
        <p>{pending ? pendingText[pending.kind] : ''}</p>
      </ConfirmDialog>
    </div>
  );
});

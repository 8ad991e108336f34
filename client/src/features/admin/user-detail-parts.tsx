import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import type { AdminUserDetail } from '@imagestudio/contracts';
import { Badge, Button, Card } from '../../components';
import { paths } from '../../config/paths';
import { formatDate, formatDateTime, formatTokens } from '../../lib/format';
import { JOB_TONES } from '../../lib/status-tones';
import { useStore } from '../../stores';
import { JOB_STATUS_LABEL, TOOL_LABEL } from './labels';

type ApiKeyRow = AdminUserDetail['api_keys'][number];

/** A customer's facts in the console: name, balance against the ledger's sum, status badges, contact, sessions. */
export const UserFacts = observer(function UserFacts({ user }: { user: AdminUserDetail }) {
  const { t } = useStore();
  return (
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
  );
});

/** The customer's latest jobs, each a link to its page. */
export const UserJobsCard = observer(function UserJobsCard({ jobs }: { jobs: AdminUserDetail['jobs'] }) {
  const { t } = useStore();
  return (
    <Card className="admin-panel">
      <h2>{t('client-admin.jobs.title')}</h2>
      {jobs.length === 0 ? (
        <p className="admin-muted">{t('client-admin.empty')}</p>
      ) : (
        <ul className="admin-list">
          {jobs.map((job) => (
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
  );
});

/** The customer's API keys, each with a revoke button (`onRevoke` asks first). */
export const UserKeysCard = observer(function UserKeysCard({
  keys,
  onRevoke,
}: {
  keys: AdminUserDetail['api_keys'];
  onRevoke(key: ApiKeyRow): void;
}) {
  const { t } = useStore();
  return (
    <Card className="admin-panel">
      <h2>{t('client-admin.users.apiKeys')}</h2>
      {keys.length === 0 ? (
        <p className="admin-muted">{t('client-admin.empty')}</p>
      ) : (
        <ul className="admin-list">
          {keys.map((key) => (
            <li key={key.id}>
              <strong>{key.name}</strong> <code>{key.prefix}</code> · {formatDate(key.created_at)}{' '}
              <Button size="sm" variant="ghost" onClick={() => onRevoke(key)}>
                {t('client-admin.users.revoke')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
});

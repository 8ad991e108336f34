import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { Download, Receipt } from 'lucide-react';
import { Link } from 'react-router';
import type { LedgerEntryView } from '@imagestudio/contracts';
import { Card, EmptyState, Skeleton } from '../../components';
import { paths } from '../../config/paths';
import { formatDateTime, formatTokens } from '../../lib/format';
import { useStore } from '../../stores';
import { Pager } from '../job-lists';
import './developer.css';

/** Token activity tab: each ledger entry with its running balance, a link to its job or receipt, CSV export. */
export const TokenActivityTab = observer(function TokenActivityTab() {
  const { tokenActivity: activity, t } = useStore();

  useEffect(() => {
    void activity.load(1);
  }, [activity]);

  const link = (entry: LedgerEntryView) => {
    if (entry.job_id) return <Link to={paths.account.requestHistory}>{t('client-developer.activity.viewJob')}</Link>;
    if (entry.deposit_id) {
      return <Link to={paths.account.receipt(entry.deposit_id)}>{t('client-developer.activity.viewReceipt')}</Link>;
    }
    return <span aria-hidden="true">—</span>;
  };

  let body;
  if (!activity.loaded && activity.loading) {
    body = <Skeleton height={120} />;
  } else if (activity.error && activity.items.length === 0) {
    body = (
      <p className="account-alert" role="alert">
        {activity.error}
      </p>
    );
  } else if (activity.items.length === 0) {
    body = <EmptyState icon={<Receipt aria-hidden="true" />} text={t('client-developer.activity.empty')} />;
  } else {
    body = (
      <table className="history-table">
        <thead>
          <tr>
            <th scope="col">{t('client-developer.activity.date')}</th>
            <th scope="col">{t('client-developer.activity.description')}</th>
            <th scope="col" className="history-table__amount">
              {t('client-developer.activity.amount')}
            </th>
            <th scope="col" className="history-table__amount">
              {t('client-developer.activity.balance')}
            </th>
            <th scope="col">{t('client-developer.activity.link')}</th>
          </tr>
        </thead>
        <tbody>
          {activity.items.map((entry) => (
            <tr key={entry.id} data-testid="ledger-row">
              <td data-label={t('client-developer.activity.date')}>{formatDateTime(entry.created_at)}</td>
              <td data-label={t('client-developer.activity.description')}>
                <span className="ledger-description">
                  <span className="ledger-kind">{t(`client-developer.activity.kind.${entry.kind}`)}</span>{' '}
                  {entry.description}
                </span>
              </td>
              <td
                data-label={t('client-developer.activity.amount')}
                className={`history-table__amount ${entry.amount < 0 ? 'ledger-debit' : 'ledger-credit'}`}
              >
                {entry.amount > 0 ? '+' : ''}
                {formatTokens(entry.amount)}
              </td>
              <td data-label={t('client-developer.activity.balance')} className="history-table__amount">
                {formatTokens(entry.balance_after)}
              </td>
              <td data-label={t('client-developer.activity.link')}>{link(entry)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }

  return (
    <Card className="account-panel">
      <header className="account-panel__header developer-header">
        <div>
          <h2>{t('client-developer.activity.title')}</h2>
          <p className="developer-lead">{t('client-developer.activity.lead')}</p>
        </div>
        <a className="btn btn--secondary btn--sm" href={activity.csvUrl} download>
          <Download aria-hidden="true" />
          {t('client-developer.activity.export')}
        </a>
      </header>
      {body}
      <Pager page={activity.page} last={activity.lastPage} onPage={(p) => void activity.load(p)} />
    </Card>
  );
});

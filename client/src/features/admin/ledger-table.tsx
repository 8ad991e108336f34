import type { AdminLedgerRow } from '@imagestudio/contracts';
import { formatDateTime, formatTokens } from '../../lib/format';
import { useStore } from '../../stores';

/** Ledger rows as operators see them: kind, amount, balance after, reason and the idempotency key. */
export function LedgerTable({ rows }: { rows: AdminLedgerRow[] }) {
  const { t } = useStore();
  if (rows.length === 0) return <p className="admin-muted">{t('client-admin.empty')}</p>;
  return (
    <div className="admin-table-wrap">
      <table className="admin-table" data-testid="admin-ledger">
        <thead>
          <tr>
            <th scope="col">{t('client-admin.col.created')}</th>
            <th scope="col">{t('client-admin.ledger.kind')}</th>
            <th scope="col">{t('client-admin.ledger.amount')}</th>
            <th scope="col">{t('client-admin.ledger.balance')}</th>
            <th scope="col">{t('client-admin.reason')}</th>
            <th scope="col">{t('client-admin.ledger.key')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-testid="admin-ledger-row">
              <td>{formatDateTime(row.created_at)}</td>
              <td>{row.kind}</td>
              <td>
                {row.amount > 0 ? '+' : ''}
                {formatTokens(row.amount)}
              </td>
              <td>{formatTokens(row.balance_after)}</td>
              <td>{row.reason ?? row.description}</td>
              <td>
                <code>{row.idempotency_key}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

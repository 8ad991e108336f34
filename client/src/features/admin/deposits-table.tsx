import type { AdminDepositRow } from '@imagestudio/contracts';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { formatCurrency, formatDateTime, formatTokens } from '../../lib/format';
import { useStore } from '../../stores';
import { DEPOSIT_STATUS_LABEL } from './labels';
import { useAdmin } from './use-admin';

/** Deposits with their status, amount, Stripe ids, invoice number and a link to the receipt once paid. */
export function DepositsTable({ rows, showUser }: { rows: AdminDepositRow[]; showUser?: boolean }) {
  const { t } = useStore();
  const admin = useAdmin();
  if (rows.length === 0) return <p className="admin-muted">{t('client-admin.empty')}</p>;
  return (
    <div className="admin-table-wrap">
      <table className="admin-table" data-testid="admin-deposits">
        <thead>
          <tr>
            <th scope="col">{t('client-admin.col.created')}</th>
            {showUser ? <th scope="col">{t('client-admin.col.user')}</th> : null}
            <th scope="col">{t('client-admin.col.status')}</th>
            <th scope="col">{t('client-admin.payments.amount')}</th>
            <th scope="col">{t('client-admin.payments.tokens')}</th>
            <th scope="col">{t('client-admin.payments.stripe')}</th>
            <th scope="col">{t('client-admin.payments.receipt')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((d) => (
            <tr key={d.id}>
              <td>{formatDateTime(d.created_at)}</td>
              {showUser ? (
                <td>
                  <Link to={paths.admin.user(d.user_id)}>{d.user_email ?? d.user_id}</Link>
                </td>
              ) : null}
              <td>
                {t(DEPOSIT_STATUS_LABEL[d.status])}
                {d.refunded > 0
                  ? ` (${t('client-admin.payments.refunded', { n: formatCurrency(d.refunded, d.currency) })})`
                  : ''}
              </td>
              <td>{formatCurrency(d.amount, d.currency)}</td>
              <td>{formatTokens(d.tokens)}</td>
              <td className="admin-ids">
                {d.stripe_session_id ? <code>{d.stripe_session_id}</code> : null}
                {d.stripe_payment_intent ? <code>{d.stripe_payment_intent}</code> : null}
                {!d.stripe_session_id && !d.stripe_payment_intent ? d.provider : null}
              </td>
              <td>
                {d.invoice_number ? (
                  <a href={admin.receiptUrl(d.id)} target="_blank" rel="noopener">
                    {d.invoice_number}
                  </a>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

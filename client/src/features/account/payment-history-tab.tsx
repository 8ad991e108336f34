import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { ChevronLeft, ChevronRight, FileText, Receipt } from 'lucide-react';
import { formatPrice } from '@imagestudio/contracts';
import { Badge, Button, ButtonLink, Card, EmptyState, Skeleton, type BadgeTone } from '../../components';
import { paths } from '../../config/paths';
import { formatDate, formatTokens, numberLocale } from '../../lib/format';
import { useStore, type DepositStatus, type PaymentHistoryItem } from '../../stores';

const STATUS_TONE: Record<DepositStatus, BadgeTone> = {
  Pending: 'warning',
  Processing: 'warning',
  Success: 'success',
  Error: 'error',
  Cancelled: 'neutral',
  Expired: 'neutral',
};

/** Payment History tab: date, status, what was bought, amount with currency and a receipt link, paged. */
export const PaymentHistoryTab = observer(function PaymentHistoryTab() {
  const { paymentHistory: history, t } = useStore();

  useEffect(() => {
    void history.load(1);
  }, [history]);

  const item = (row: PaymentHistoryItem) =>
    row.pack
      ? t('client-payments.account.history.packItem', { title: row.pack, n: formatTokens(row.tokens) })
      : t('client-payments.account.history.tokensItem', { n: formatTokens(row.tokens) });

  let body;
  if (!history.loaded && history.loading) {
    body = (
      <div className="history-skeleton" aria-busy="true">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={40} />
        ))}
      </div>
    );
  } else if (history.error && history.items.length === 0) {
    body = (
      <p className="account-alert" role="alert">
        {history.error}
      </p>
    );
  } else if (history.items.length === 0) {
    body = (
      <EmptyState
        icon={<Receipt aria-hidden="true" />}
        text={t('client-payments.account.history.empty')}
        action={<ButtonLink to={paths.pricing}>{t('client-payments.account.history.buy')}</ButtonLink>}
      />
    );
  } else {
    body = (
      <table className="history-table">
        <thead>
          <tr>
            <th scope="col">{t('client-payments.account.history.date')}</th>
            <th scope="col">{t('client-payments.account.history.status')}</th>
            <th scope="col">{t('client-payments.account.history.item')}</th>
            <th scope="col" className="history-table__amount">
              {t('client-payments.account.history.amount')}
            </th>
            <th scope="col">{t('client-payments.account.history.receipt')}</th>
          </tr>
        </thead>
        <tbody>
          {history.items.map((row) => (
            <tr key={row.id} data-testid="payment-row">
              <td data-label={t('client-payments.account.history.date')}>{formatDate(row.date)}</td>
              <td data-label={t('client-payments.account.history.status')}>
                <Badge tone={STATUS_TONE[row.status] ?? 'neutral'}>
                  {t(`client-payments.account.status.${row.status}`)}
                </Badge>
              </td>
              <td data-label={t('client-payments.account.history.item')}>{item(row)}</td>
              <td data-label={t('client-payments.account.history.amount')} className="history-table__amount">
                {formatPrice(row.amount, row.currency, '', numberLocale())}
              </td>
              <td data-label={t('client-payments.account.history.receipt')}>
                {row.has_receipt ? (
                  <Link to={paths.account.receipt(row.id)} className="history-table__receipt">
                    <FileText aria-hidden="true" />
                    {t('client-payments.account.history.viewReceipt')}
                  </Link>
                ) : (
                  <span aria-hidden="true">—</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }

  return (
    <Card className="account-panel">
      <header className="account-panel__header">
        <h2>{t('client-payments.account.history.title')}</h2>
      </header>
      {body}
      {history.lastPage > 1 ? (
        <nav className="history-pager" aria-label={t('client-payments.account.history.title')}>
          <Button
            variant="secondary"
            size="sm"
            icon={<ChevronLeft aria-hidden="true" />}
            disabled={history.page <= 1 || history.loading}
            onClick={() => void history.load(history.page - 1)}
          >
            {t('client-payments.account.history.previous')}
          </Button>
          <span>{t('client-payments.account.history.pageOf', { page: history.page, pages: history.lastPage })}</span>
          <Button
            variant="secondary"
            size="sm"
            disabled={history.page >= history.lastPage || history.loading}
            onClick={() => void history.load(history.page + 1)}
          >
            {t('client-payments.account.history.next')}
            <ChevronRight aria-hidden="true" />
          </Button>
        </nav>
      ) : null}
    </Card>
  );
});

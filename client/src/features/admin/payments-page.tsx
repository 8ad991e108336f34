import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { Card, Select, TextField } from '../../components';
import { useStore } from '../../stores';
import { DepositsTable } from './deposits-table';
import { DEPOSIT_STATUSES, DEPOSIT_STATUS_LABEL } from './labels';
import { DayFilter, FilterForm, ListBody } from './list-parts';
import { useAdmin } from './use-admin';

/** /admin/payments: every user's deposits with status, Stripe ids and receipts. */
export const PaymentsPage = observer(function PaymentsPage() {
  const { t } = useStore();
  const { deposits } = useAdmin();
  useEffect(() => {
    if (!deposits.loaded) void deposits.search();
  }, [deposits]);
  const f = deposits.filters;
  return (
    <Card className="admin-panel">
      <h1>{t('client-admin.payments.title')}</h1>
      <FilterForm onSearch={() => void deposits.search()}>
        <TextField
          label={t('client-admin.filter.user')}
          value={f.user}
          onChange={(e) => deposits.setFilter('user', e.target.value)}
        />
        <Select
          label={t('client-admin.filter.status')}
          value={f.status}
          onChange={(e) => deposits.setFilter('status', e.target.value)}
          options={[
            { value: '', label: t('client-admin.filter.any') },
            ...DEPOSIT_STATUSES.map((s) => ({ value: s, label: t(DEPOSIT_STATUS_LABEL[s]) })),
          ]}
        />
        <DayFilter
          label={t('client-admin.filter.from')}
          value={f.from}
          onChange={(day) => deposits.setFilter('from', day)}
        />
        <DayFilter label={t('client-admin.filter.to')} value={f.to} onChange={(day) => deposits.setFilter('to', day)} />
      </FilterForm>
      <ListBody list={deposits}>
        <DepositsTable rows={deposits.items} showUser />
      </ListBody>
    </Card>
  );
});

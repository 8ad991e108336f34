import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { Card, TextField } from '../../components';
import { formatDateTime } from '../../lib/format';
import { useStore } from '../../stores';
import { FilterForm, ListBody } from './list-parts';
import { useAdmin } from './use-admin';

/** /admin/audit: every operator action (console and CLI), newest first, by actor and action. */
export const AuditPage = observer(function AuditPage() {
  const { t } = useStore();
  const { audit } = useAdmin();
  useEffect(() => {
    if (!audit.loaded) void audit.search();
  }, [audit]);
  return (
    <Card className="admin-panel">
      <h1>{t('client-admin.audit.title')}</h1>
      <FilterForm onSearch={() => void audit.search()}>
        <TextField
          label={t('client-admin.audit.actor')}
          value={audit.filters.actor}
          onChange={(e) => audit.setFilter('actor', e.target.value)}
        />
        <TextField
          label={t('client-admin.audit.action')}
          help={t('client-admin.audit.actionHelp')}
          value={audit.filters.action}
          onChange={(e) => audit.setFilter('action', e.target.value)}
        />
      </FilterForm>
      <ListBody list={audit}>
        <table className="admin-table" data-testid="admin-audit">
          <thead>
            <tr>
              <th scope="col">{t('client-admin.col.created')}</th>
              <th scope="col">{t('client-admin.audit.actor')}</th>
              <th scope="col">{t('client-admin.audit.action')}</th>
              <th scope="col">{t('client-admin.audit.target')}</th>
              <th scope="col">{t('client-admin.audit.ip')}</th>
              <th scope="col">{t('client-admin.audit.details')}</th>
            </tr>
          </thead>
          <tbody>
            {audit.items.map((row) => (
              <tr key={row.id}>
                <td>{formatDateTime(row.created_at)}</td>
                <td>{row.actor}</td>
                <td>
                  <code className="admin-nowrap">{row.action}</code>
                </td>
                <td>{row.target ?? '—'}</td>
                <td>{row.ip ?? '—'}</td>
                <td>
                  <code className="admin-details">{JSON.stringify(row.details)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListBody>
    </Card>
  );
});

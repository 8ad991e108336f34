import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { Badge, Card, TextField } from '../../components';
import { paths } from '../../config/paths';
import { formatDateTime, formatTokens } from '../../lib/format';
import { useStore } from '../../stores';
import { FilterForm, ListBody } from './list-parts';
import { useAdmin } from './use-admin';

/** /admin/users: users whose email, name or id matches, newest first. */
export const UsersPage = observer(function UsersPage() {
  const { t } = useStore();
  const { users } = useAdmin();
  useEffect(() => {
    if (!users.loaded) void users.search();
  }, [users]);
  return (
    <Card className="admin-panel">
      <h1>{t('client-admin.users.title')}</h1>
      <FilterForm onSearch={() => void users.search()}>
        <TextField
          label={t('client-admin.users.search')}
          type="search"
          value={users.filters.q}
          onChange={(e) => users.setFilter('q', e.target.value)}
        />
      </FilterForm>
      <ListBody list={users}>
        <table className="admin-table" data-testid="admin-users">
          <thead>
            <tr>
              <th scope="col">{t('client-admin.col.email')}</th>
              <th scope="col">{t('client-admin.col.name')}</th>
              <th scope="col">{t('client-admin.col.balance')}</th>
              <th scope="col">{t('client-admin.col.status')}</th>
              <th scope="col">{t('client-admin.col.created')}</th>
            </tr>
          </thead>
          <tbody>
            {users.items.map((user) => (
              <tr key={user.id}>
                <td>
                  <Link to={paths.admin.user(user.id)}>{user.email}</Link>
                </td>
                <td>{`${user.name} ${user.surname}`.trim()}</td>
                <td>{formatTokens(user.balance)}</td>
                <td>
                  <div className="admin-badges">
                    {user.role === 'admin' ? <Badge tone="accent">{t('client-admin.users.operator')}</Badge> : null}
                    {user.disabled ? <Badge tone="error">{t('client-admin.users.disabled')}</Badge> : null}
                    {!user.email_verified ? <Badge tone="warning">{t('client-admin.users.unverified')}</Badge> : null}
                  </div>
                </td>
                <td>{formatDateTime(user.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListBody>
    </Card>
  );
});

import { observer } from 'mobx-react-lite';
import { Button } from '../../components';
import { formatDate } from '../../lib/format';
import { useStore } from '../../stores';

/** The user's keys: prefix and last four characters, dates, and a revoke button (`onRevoke` asks first). */
export const ApiKeysTable = observer(function ApiKeysTable({
  onRevoke,
}: {
  onRevoke(key: { id: string; name: string }): void;
}) {
  const { apiKeys: store, t } = useStore();
  return (
    <table className="history-table">
      <thead>
        <tr>
          <th scope="col">{t('client-developer.keys.name')}</th>
          <th scope="col">{t('client-developer.keys.key')}</th>
          <th scope="col">{t('client-developer.keys.created')}</th>
          <th scope="col">{t('client-developer.keys.lastUsed')}</th>
          <th scope="col">{t('client-developer.keys.expiresColumn')}</th>
          <th scope="col">
            <span className="visually-hidden">{t('client-developer.keys.revoke')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {store.keys.map((key) => (
          <tr key={key.id} data-testid="api-key-row">
            <td data-label={t('client-developer.keys.name')}>{key.name}</td>
            <td data-label={t('client-developer.keys.key')}>
              <code>
                {key.prefix}…{key.last4}
              </code>
            </td>
            <td data-label={t('client-developer.keys.created')}>{formatDate(key.created_at)}</td>
            <td data-label={t('client-developer.keys.lastUsed')}>
              {key.last_used_at ? formatDate(key.last_used_at) : t('client-developer.keys.never')}
            </td>
            <td data-label={t('client-developer.keys.expiresColumn')}>
              {key.expires_at ? formatDate(key.expires_at) : t('client-developer.keys.noExpiry')}
            </td>
            <td>
              <Button variant="secondary" size="sm" onClick={() => onRevoke(key)}>
                {t('client-developer.keys.revoke')}
              </Button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
});

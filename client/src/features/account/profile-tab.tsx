import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Pencil } from 'lucide-react';
import { Button, Card, Skeleton } from '../../components';
import { formatDate, formatTokens } from '../../lib/format';
import { useStore } from '../../stores';
import { EmailChangeForm } from './email-change-form';
import { ProfileForm } from './profile-form';

/** Profile tab: the user's details, balance and join date, and an edit form. Missing values are blank. */
export const ProfileTab = observer(function ProfileTab() {
  const { profile, countries, t } = useStore();
  const [editing, setEditing] = useState(false);

  useEffect(() => {
    void countries.ensureLoaded();
  }, [countries]);

  const user = profile.profile;
  if (!user) {
    return (
      <Card>
        <Skeleton height={24} width="50%" />
      </Card>
    );
  }
  // The country in the reader's language: the country list comes in it (the profile carries the English name).
  const country = user.country
    ? (countries.countries.find((c) => c.id === user.country?.id)?.title ?? user.country.name)
    : '';
  const rows: Array<[string, string, string]> = [
    ['fullName', t('client-payments.account.profile.fullName'), profile.fullName],
    ['email', t('client-payments.account.profile.email'), user.email ?? ''],
    ['phone', t('client-payments.account.profile.phone'), user.phone ?? ''],
    ['country', t('client-payments.account.profile.country'), country],
    ['city', t('client-payments.account.profile.city'), user.city ?? ''],
    ['address', t('client-payments.account.profile.address'), user.address ?? ''],
    ['postCode', t('client-payments.account.profile.postCode'), user.post_code ?? ''],
    [
      'balance',
      t('client-payments.account.profile.balance'),
      t('client-payments.account.profile.tokens', { n: formatTokens(profile.balance) }),
    ],
    ['joined', t('client-payments.account.profile.joined'), formatDate(user.created_at)],
  ];
  return (
    <Card className="account-panel">
      <header className="account-panel__header">
        <h2>{t('client-payments.account.profile.title')}</h2>
        {editing ? null : (
          <Button variant="secondary" size="sm" icon={<Pencil aria-hidden="true" />} onClick={() => setEditing(true)}>
            {t('client-payments.account.edit')}
          </Button>
        )}
      </header>
      {editing ? (
        <ProfileForm user={user} onDone={() => setEditing(false)} />
      ) : (
        <dl className="account__facts account__facts--grid">
          {rows.map(([key, label, value]) => (
            <div key={key} data-testid={`profile-${key}`}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {editing ? null : <EmailChangeForm />}
    </Card>
  );
});

import { observer } from 'mobx-react-lite';
import { Construction } from 'lucide-react';
import { Card, EmptyState, Skeleton } from '../../components';
import { formatJoinDate, formatTokens } from '../../lib/format';
import { useStore } from '../../stores';

/** Profile tab: who is signed in (the editable form comes with the account issue). */
export const ProfileTab = observer(function ProfileTab() {
  const { profile, t } = useStore();
  if (!profile.profile) {
    return (
      <Card>
        <Skeleton height={24} width="50%" />
      </Card>
    );
  }
  const rows: Array<[string, string]> = [
    [t('shell.account.profile.fullName'), profile.fullName],
    [t('shell.account.profile.email'), profile.profile.email ?? ''],
    [t('shell.account.profile.balance'), formatTokens(profile.balance)],
    [t('shell.account.profile.memberSince'), formatJoinDate(profile.profile.created_at)],
  ];
  return (
    <Card>
      <dl className="account__facts">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
});

/** Tabs whose content the account issue builds. */
export const PendingTab = observer(function PendingTab() {
  const { t } = useStore();
  return <EmptyState icon={<Construction aria-hidden="true" />} text={t('shell.account.comingSoon')} />;
});

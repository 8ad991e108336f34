import { observer } from 'mobx-react-lite';
import {
  Coins,
  CreditCard,
  FolderOpen,
  History,
  KeyRound,
  KeySquare,
  LogOut,
  ShieldCheck,
  UserRound,
} from 'lucide-react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import type { MessageKey } from '../../lib/i18n';
import { useStore } from '../../stores';
import './account.css';

const TABS: Array<{ to: string; key: MessageKey; icon: typeof UserRound }> = [
  { to: paths.account.projects, key: 'shell.account.tabs.projects', icon: FolderOpen },
  { to: paths.account.profile, key: 'shell.account.tabs.profile', icon: UserRound },
  { to: paths.account.paymentHistory, key: 'shell.account.tabs.paymentHistory', icon: CreditCard },
  { to: paths.account.requestHistory, key: 'shell.account.tabs.requestHistory', icon: History },
  { to: paths.account.tokenActivity, key: 'client-developer.tabs.activity', icon: Coins },
  { to: paths.account.apiKeys, key: 'client-developer.tabs.apiKeys', icon: KeySquare },
  { to: paths.account.changePassword, key: 'shell.account.tabs.changePassword', icon: KeyRound },
];

/** /account: side menu with the tabs and Logout; the tab content renders beside it. */
export const AccountLayout = observer(function AccountLayout() {
  const { auth, profile, t } = useStore();
  const navigate = useNavigate();
  const logout = async () => {
    await auth.logout();
    navigate(paths.home, { replace: true });
  };
  return (
    <div className="container account">
      <h1 className="account__title">{t('shell.account.title')}</h1>
      <div className="account__grid">
        <nav className="account__menu" aria-label={t('shell.nav.account')}>
          {TABS.map(({ to, key, icon: Icon }) => (
            <NavLink key={to} to={to} className="account__tab">
              <Icon aria-hidden="true" />
              <span>{t(key)}</span>
            </NavLink>
          ))}
          {/* Operators only: a customer's profile has no role, and nothing here names the console. */}
          {profile.profile?.role === 'admin' ? (
            <NavLink to={paths.admin.root} className="account__tab" data-testid="admin-console-link">
              <ShieldCheck aria-hidden="true" />
              <span>{t('shell.account.tabs.admin')}</span>
            </NavLink>
          ) : null}
          <button type="button" className="account__tab account__logout" onClick={() => void logout()}>
            <LogOut aria-hidden="true" />
            <span>{t('shell.nav.logout')}</span>
          </button>
        </nav>
        <section className="account__content">
          <Outlet />
        </section>
      </div>
    </div>
  );
});

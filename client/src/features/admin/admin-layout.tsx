import { observer } from 'mobx-react-lite';
import { ClipboardList, Coins, ExternalLink, Gauge, ListChecks, Package, Users } from 'lucide-react';
import { NavLink, Outlet } from 'react-router';
import { PageSpinner } from '../../components';
import { paths } from '../../config/paths';
import type { MessageKey } from '../../lib/i18n';
import { useStore } from '../../stores';
import { NotFoundPage } from '../message-pages';
import { ReauthDialog } from './reauth-dialog';
import { useAdmin } from './use-admin';
import './admin.css';

const SECTIONS: Array<{ to: string; key: MessageKey; icon: typeof Gauge; end?: boolean }> = [
  { to: paths.admin.root, key: 'client-admin.nav.overview', icon: Gauge, end: true },
  { to: paths.admin.jobs, key: 'client-admin.nav.jobs', icon: ListChecks },
  { to: paths.admin.users, key: 'client-admin.nav.users', icon: Users },
  { to: paths.admin.payments, key: 'client-admin.nav.payments', icon: Coins },
  { to: paths.admin.catalog, key: 'client-admin.nav.catalog', icon: Package },
  { to: paths.admin.audit, key: 'client-admin.nav.audit', icon: ClipboardList },
];

/**
 * /admin: the console's menu beside its pages, and the password dialog its changes open. Anyone whose profile
 * is not an operator's gets the not-found page, the same as the API's 404: the console is not advertised.
 */
export const AdminLayout = observer(function AdminLayout() {
  const { profile, t } = useStore();
  const admin = useAdmin();
  if (!profile.profile) return <PageSpinner label={t('shell.app.loading')} />;
  if (!admin.isOperator) return <NotFoundPage />;
  return (
    <div className="container admin">
      <div className="admin__grid">
        <nav className="admin__menu" aria-label={t('client-admin.nav.label')}>
          <p className="admin__menu-title">{t('client-admin.title')}</p>
          {SECTIONS.map(({ to, key, icon: Icon, end }) => (
            <NavLink key={to} to={to} end={end} className="admin__tab">
              <Icon aria-hidden="true" />
              <span>{t(key)}</span>
            </NavLink>
          ))}
          {/* The BullMQ board is a server page: a full page load, not a client route. */}
          <a href={paths.admin.queues} className="admin__tab" target="_blank" rel="noopener">
            <ExternalLink aria-hidden="true" />
            <span>{t('client-admin.nav.queues')}</span>
          </a>
        </nav>
        <section className="admin__content">
          <Outlet />
        </section>
      </div>
      <ReauthDialog />
    </div>
  );
});

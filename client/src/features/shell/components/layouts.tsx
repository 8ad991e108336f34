import { observer } from 'mobx-react-lite';
import { Link, Outlet } from 'react-router';
import { ToastViewport } from '../../../components';
import { paths } from '../../../config/paths';
import { useStore } from '../../../stores';
import { CookieBanner } from './cookie-banner';
import { GoogleTag } from './google-tag';
import { Footer } from './footer';
import { Header } from './header';
import { Logo } from './logo';
import './layouts.css';

/** Pages with header, footer and the cookie banner. */
export const MainLayout = observer(function MainLayout() {
  const { t } = useStore();
  return (
    <div className="layout">
      <a className="skip-link" href="#main">
        {t('shell.app.skipToContent')}
      </a>
      <Header />
      <main id="main" className="layout__main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <CookieBanner />
      <GoogleTag />
    </div>
  );
});

/** Sign-in, sign-up and password pages: no header or footer, just the logo above a centred card. */
export const AuthLayout = observer(function AuthLayout() {
  const { t } = useStore();
  return (
    <div className="auth-layout">
      <Link to={paths.home} className="auth-layout__logo" aria-label={t('shell.app.name')}>
        <Logo />
      </Link>
      <main id="main" className="auth-layout__main">
        <Outlet />
      </main>
    </div>
  );
});

/** Toasts for the whole app, bottom right. */
export const ToastHost = observer(function ToastHost() {
  const { ui, t } = useStore();
  return (
    <ToastViewport
      toasts={ui.toasts.slice()}
      onDismiss={(id) => ui.dismiss(id)}
      dismissLabel={t('shell.toast.close')}
    />
  );
});

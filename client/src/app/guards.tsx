import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSpinner } from '../components';
import { loginRedirectPath } from '../lib/redirect';
import { useStore } from '../stores';
import { paths } from '../config/paths';

/** Routes for signed-in users: guests go to Login with the full path as the redirect. */
export const RequireAuth = observer(function RequireAuth() {
  const { auth, t } = useStore();
  const location = useLocation();
  if (!auth.authCheckedOnce) return <PageSpinner label={t('shell.app.loading')} />;
  if (!auth.isAuthenticated) {
    return <Navigate to={loginRedirectPath(`${location.pathname}${location.search}${location.hash}`)} replace />;
  }
  return <Outlet />;
});

/** Routes for guests only: a signed-in user goes home (or where a just-finished sign-in asked to go). */
export const GuestOnly = observer(function GuestOnly() {
  const { auth, t } = useStore();
  // The sign-in target is used once: forget it when the user leaves the guest pages.
  useEffect(() => () => auth.setPendingRedirect(null), [auth]);
  if (!auth.authCheckedOnce) return <PageSpinner label={t('shell.app.loading')} />;
  if (auth.isAuthenticated) return <Navigate to={auth.pendingRedirect ?? paths.home} replace />;
  return <Outlet />;
});

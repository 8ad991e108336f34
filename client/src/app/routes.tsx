import { Navigate, Outlet, type RouteObject } from 'react-router';
import { paths } from '../config/paths';
import { AccountLayout, PendingTab, ProfileTab } from '../features/account';
import { ForgotPasswordPage, LoginPage, RegisterPage, ResetPasswordPage } from '../features/auth';
import { EmailAlreadyVerifiedPage, EmailVerificationPage, EmailVerifiedPage } from '../features/email-verification';
import { HomePage } from '../features/home';
import { NotFoundPage } from '../features/misc';
import { AuthLayout, MainLayout, ToastHost } from '../features/shell';
import { StaticPageById, StaticPageBySlug } from '../features/static-pages';
import { GuestOnly, RequireAuth } from './guards';
import { RouteError } from './route-error';
import { ScrollToTop } from './scroll-to-top';

/** Drops the leading slash: child routes use relative paths. */
const rel = (path: string) => path.replace(/^\//, '');

/**
 * The route table, in three groups by guard. New pages (pricing, payment results, tools, account tabs)
 * are added to the group whose access rule they follow; `paths` names every path.
 */

/** Pages for everyone, with header and footer. */
const publicPages: RouteObject[] = [
  { index: true, element: <HomePage /> },
  { path: rel(paths.emailVerifySuccess), element: <EmailVerifiedPage /> },
  { path: rel(paths.emailVerifyAlready), element: <EmailAlreadyVerifiedPage /> },
  { path: 'static-page/:id', element: <StaticPageById /> },
];

/** Pages for signed-in users only, with header and footer. */
const signedInPages: RouteObject[] = [
  { path: rel(paths.emailVerification), element: <EmailVerificationPage /> },
  {
    path: rel(paths.account.root),
    element: <AccountLayout />,
    children: [
      { index: true, element: <Navigate to={paths.account.profile} replace /> },
      { path: 'profile', element: <ProfileTab /> },
      { path: 'my-projects', element: <PendingTab /> },
      { path: 'payment-history', element: <PendingTab /> },
      { path: 'request-history', element: <PendingTab /> },
      { path: 'change-password', element: <PendingTab /> },
    ],
  },
  {
    path: rel(paths.services.root),
    children: [{ index: true, element: <Navigate to={paths.services.generateImage} replace /> }],
  },
];

/** Sign-in, sign-up and password pages: guests only, no header or footer. */
const guestPages: RouteObject[] = [
  { path: rel(paths.login), element: <LoginPage /> },
  { path: rel(paths.register), element: <RegisterPage /> },
  { path: rel(paths.forgotPassword), element: <ForgotPasswordPage /> },
  { path: rel(paths.resetPassword), element: <ResetPasswordPage /> },
  { path: rel(paths.resetPasswordConfirm), element: <ResetPasswordPage /> },
];

function RootRoute() {
  return (
    <>
      <ScrollToTop />
      <Outlet />
      <ToastHost />
    </>
  );
}

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootRoute />,
    errorElement: <RouteError />,
    children: [
      { element: <AuthLayout />, children: [{ element: <GuestOnly />, children: guestPages }] },
      {
        element: <MainLayout />,
        children: [
          ...publicPages,
          { element: <RequireAuth />, children: signedInPages },
          // A single segment is a static page only if its slug is among the fetched pages.
          { path: ':slug', element: <StaticPageBySlug /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

import { Navigate, Outlet, type RouteObject } from 'react-router';
import { paths } from '../config/paths';
import { AccountLayout, ChangePasswordTab, PaymentHistoryTab, ProfileTab } from '../features/account';
import { ForgotPasswordPage, LoginPage, RegisterPage, ResetPasswordPage } from '../features/auth';
import { EmailAlreadyVerifiedPage, EmailVerificationPage, EmailVerifiedPage } from '../features/email-verification';
import { ApiKeysTab, DevelopersPage, TokenActivityTab } from '../features/developer';
import { HomePage } from '../features/home';
import { HistoryTab, ProjectsTab } from '../features/job-lists';
import { GeneratePage, RemoveBackgroundPage, ToolLandingPage, UpscalePage } from '../features/tools';
import { NotFoundPage } from '../features/misc';
import { FailPaymentPage, ProcessingPaymentPage, SuccessPaymentPage } from '../features/payments';
import { PricingPage } from '../features/pricing';
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
  { path: rel(paths.pricing), element: <PricingPage /> },
  { path: rel(paths.developers), element: <DevelopersPage /> },
  { path: rel(paths.successPayment), element: <SuccessPaymentPage /> },
  { path: rel(paths.failPayment), element: <FailPaymentPage /> },
  { path: rel(paths.pendingPayment), element: <ProcessingPaymentPage /> },
  { path: rel(paths.processingPayment), element: <ProcessingPaymentPage /> },
  { path: rel(paths.landing.generateImage), element: <ToolLandingPage tool="generate" /> },
  { path: rel(paths.landing.removeBackground), element: <ToolLandingPage tool="remove-background" /> },
  { path: rel(paths.landing.upscale), element: <ToolLandingPage tool="upscale" /> },
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
      { path: 'my-projects', element: <ProjectsTab /> },
      { path: 'payment-history', element: <PaymentHistoryTab /> },
      { path: 'request-history', element: <HistoryTab /> },
      { path: 'change-password', element: <ChangePasswordTab /> },
      { path: 'token-activity', element: <TokenActivityTab /> },
      { path: 'api-keys', element: <ApiKeysTab /> },
    ],
  },
  {
    path: rel(paths.services.root),
    children: [
      { index: true, element: <Navigate to={paths.services.generateImage} replace /> },
      { path: 'generate-image', element: <GeneratePage /> },
      { path: 'remove-background', element: <RemoveBackgroundPage /> },
      { path: 'upscale', element: <UpscalePage /> },
    ],
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

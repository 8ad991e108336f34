import { Navigate, Outlet, type RouteObject } from 'react-router';
import { JOB_NAMES } from '@imagestudio/contracts';
import { paths } from '../config/paths';
import { byTool, TOOLS } from '../config/tools';
import { ServicesIndex, ToolGate } from '../features/availability';
import { HomePage } from '../features/home';
import { AuthLayout, MainLayout, ToastHost } from '../features/shell';
import { GuestOnly, RequireAuth } from './guards';
import { RouteError } from './route-error';
import { RouteTitle } from './route-title';
import { ScrollToTop } from './scroll-to-top';
import { lazyPage } from './lazy-page';
import { usePrefetchOnIntent } from './prefetch';

/*
 * Every page but the home page comes in its own chunk, loaded when its route is first shown (or earlier, see
 * prefetch.ts). A new page: add a lazyPage line here, use it in its group below, and, if links lead to it
 * from other pages, list its path in `prefetchable`. A new tool's pages come from its entry in `TOOLS`.
 */
const AccountLayout = lazyPage(() => import('../features/account').then((m) => m.AccountLayout));
const ProfileTab = lazyPage(() => import('../features/account').then((m) => m.ProfileTab));
const PaymentHistoryTab = lazyPage(() => import('../features/account').then((m) => m.PaymentHistoryTab));
const ReceiptPage = lazyPage(() => import('../features/account').then((m) => m.ReceiptPage));
const ChangePasswordTab = lazyPage(() => import('../features/account').then((m) => m.ChangePasswordTab));
const LoginPage = lazyPage(() => import('../features/auth').then((m) => m.LoginPage));
const RegisterPage = lazyPage(() => import('../features/auth').then((m) => m.RegisterPage));
const ForgotPasswordPage = lazyPage(() => import('../features/auth').then((m) => m.ForgotPasswordPage));
const ResetPasswordPage = lazyPage(() => import('../features/auth').then((m) => m.ResetPasswordPage));
const EmailVerificationPage = lazyPage(() =>
  import('../features/email-verification').then((m) => m.EmailVerificationPage),
);
const EmailVerifiedPage = lazyPage(() => import('../features/email-verification').then((m) => m.EmailVerifiedPage));
const EmailAlreadyVerifiedPage = lazyPage(() =>
  import('../features/email-verification').then((m) => m.EmailAlreadyVerifiedPage),
);
const HistoryTab = lazyPage(() => import('../features/job-lists').then((m) => m.HistoryTab));
const ProjectsTab = lazyPage(() => import('../features/job-lists').then((m) => m.ProjectsTab));
/** Each tool's page, the loader in features/tools' `toolPages` that its registry entry names. */
const toolPages = byTool(JOB_NAMES, (tool) =>
  lazyPage(() => import('../features/tools').then((m) => m.toolPages[TOOLS[tool].page as keyof typeof m.toolPages]())),
);
const ToolLandingPage = lazyPage(() => import('../features/tools').then((m) => m.ToolLandingPage));
const NotFoundPage = lazyPage(() => import('../features/message-pages').then((m) => m.NotFoundPage));
const FailPaymentPage = lazyPage(() => import('../features/payments').then((m) => m.FailPaymentPage));
const CancelledPaymentPage = lazyPage(() => import('../features/payments').then((m) => m.CancelledPaymentPage));
const ProcessingPaymentPage = lazyPage(() => import('../features/payments').then((m) => m.ProcessingPaymentPage));
const SuccessPaymentPage = lazyPage(() => import('../features/payments').then((m) => m.SuccessPaymentPage));
const ApiKeysTab = lazyPage(() => import('../features/developer').then((m) => m.ApiKeysTab));
const DevelopersPage = lazyPage(() => import('../features/developer').then((m) => m.DevelopersPage));
const TokenActivityTab = lazyPage(() => import('../features/developer').then((m) => m.TokenActivityTab));
const PricingPage = lazyPage(() => import('../features/pricing').then((m) => m.PricingPage));
const StaticPageById = lazyPage(() => import('../features/static-pages').then((m) => m.StaticPageById));
const StaticPageBySlug = lazyPage(() => import('../features/static-pages').then((m) => m.StaticPageBySlug));

const AdminLayout = lazyPage(() => import('../features/admin').then((m) => m.AdminLayout));
const AdminOverviewPage = lazyPage(() => import('../features/admin').then((m) => m.OverviewPage));
const AdminJobsPage = lazyPage(() => import('../features/admin').then((m) => m.JobsPage));
const AdminJobPage = lazyPage(() => import('../features/admin').then((m) => m.JobDetailPage));
const AdminUsersPage = lazyPage(() => import('../features/admin').then((m) => m.UsersPage));
const AdminUserPage = lazyPage(() => import('../features/admin').then((m) => m.UserDetailPage));
const AdminPaymentsPage = lazyPage(() => import('../features/admin').then((m) => m.PaymentsPage));
const AdminCatalogPage = lazyPage(() => import('../features/admin').then((m) => m.CatalogPage));
const AdminAuditPage = lazyPage(() => import('../features/admin').then((m) => m.AuditPage));

/** Paths whose page chunk is fetched as soon as a link to them is pointed at or focused. */
export const prefetchable: Record<string, () => Promise<unknown>> = {
  // /services shows the first tool that can run, most often the first of all.
  [paths.services.root]: toolPages[JOB_NAMES[0]].preload,
  ...Object.fromEntries(JOB_NAMES.map((tool) => [TOOLS[tool].path, toolPages[tool].preload])),
  ...Object.fromEntries(JOB_NAMES.map((tool) => [TOOLS[tool].landingPath, ToolLandingPage.preload])),
  [paths.pricing]: PricingPage.preload,
  [paths.login]: LoginPage.preload,
  [paths.register]: RegisterPage.preload,
  [paths.account.profile]: ProfileTab.preload,
};

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
  { path: rel(paths.cancelledPayment), element: <CancelledPaymentPage /> },
  { path: rel(paths.pendingPayment), element: <ProcessingPaymentPage /> },
  { path: rel(paths.processingPayment), element: <ProcessingPaymentPage /> },
  ...JOB_NAMES.map((tool) => ({ path: rel(TOOLS[tool].landingPath), element: <ToolLandingPage tool={tool} /> })),
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
  { path: rel(paths.account.receipt(':depositId')), element: <ReceiptPage /> },
  {
    // The operator console: the layout shows the not-found page to anyone whose profile is not an operator's.
    path: rel(paths.admin.root),
    element: <AdminLayout />,
    children: [
      { index: true, element: <AdminOverviewPage /> },
      { path: 'jobs', element: <AdminJobsPage /> },
      { path: 'jobs/:id', element: <AdminJobPage /> },
      { path: 'users', element: <AdminUsersPage /> },
      { path: 'users/:id', element: <AdminUserPage /> },
      { path: 'payments', element: <AdminPaymentsPage /> },
      { path: 'catalog', element: <AdminCatalogPage /> },
      { path: 'audit', element: <AdminAuditPage /> },
    ],
  },
  {
    path: rel(paths.services.root),
    children: [
      // The first tool that can run now; each tool page says so when its tool cannot.
      { index: true, element: <ServicesIndex /> },
      ...JOB_NAMES.map((tool) => {
        const Page = toolPages[tool];
        return {
          path: TOOLS[tool].path.slice(paths.services.root.length + 1),
          element: (
            <ToolGate tool={tool}>
              <Page />
            </ToolGate>
          ),
        };
      }),
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
  usePrefetchOnIntent(prefetchable);
  return (
    <>
      <ScrollToTop />
      <RouteTitle />
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

/**
 * Every client route path in one place (bulletproof-react's paths.ts). Links, guards, redirects and the
 * API client's "does this page need sign-in" check all read from here; each tool's page and landing page are
 * in the tool registry (`TOOLS` in tools.ts).
 */
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  resetPasswordConfirm: '/reset-password-confirm',
  pricing: '/pricing',
  developers: '/developers',
  successPayment: '/success-payment',
  failPayment: '/fail-payment',
  cancelledPayment: '/cancelled-payment',
  pendingPayment: '/pending-payment',
  processingPayment: '/processing-payment',
  emailVerification: '/email-verification',
  emailVerifySuccess: '/email/verify/success',
  emailVerifyAlready: '/email/verify/already-success',
  account: {
    root: '/account',
    projects: '/account/my-projects',
    profile: '/account/profile',
    paymentHistory: '/account/payment-history',
    requestHistory: '/account/request-history',
    changePassword: '/account/change-password',
    tokenActivity: '/account/token-activity',
    apiKeys: '/account/api-keys',
    /** One payment's receipt page (the route pattern is `receipt(':depositId')`). */
    receipt: (depositId: string) => `/account/payments/${depositId}/receipt`,
  },
  /** The tools' pages, one below it per tool (`TOOLS[tool].path`). */
  services: {
    root: '/services',
  },
  /** The operator console (admins only; everyone else sees the not-found page). */
  admin: {
    root: '/admin',
    jobs: '/admin/jobs',
    job: (id: string) => `/admin/jobs/${encodeURIComponent(id)}`,
    users: '/admin/users',
    user: (id: string) => `/admin/users/${encodeURIComponent(id)}`,
    payments: '/admin/payments',
    catalog: '/admin/catalog',
    audit: '/admin/audit',
    /** The BullMQ board, a server page (not a client route). */
    queues: '/admin/queues',
  },
  staticPageById: (id: number | string) => `/static-page/${id}`,
} as const;

/** Paths under these prefixes are for signed-in users only; guests are sent to sign-in with a redirect. */
const SIGNED_IN_PREFIXES = [paths.account.root, paths.services.root, paths.emailVerification, paths.admin.root];

function underPrefix(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

/** Whether the page at `pathname` requires sign-in. */
export function requiresAuth(pathname: string): boolean {
  return SIGNED_IN_PREFIXES.some((prefix) => underPrefix(pathname, prefix));
}

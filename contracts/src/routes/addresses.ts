import type { HttpMethod } from './route';

/**
 * Where each route of the table is: its method and path, the one place either is written. This module loads
 * nothing at run time, so the browser's calls (endpoints.ts) read it without loading the table's zod schemas; each area file
 * gives these names their entries (`defineRoutes('jobs', {...})`), so an address without an entry, or an entry
 * without an address, does not compile. Paths are below /api in OpenAPI form (`/jobs/{id}`).
 */
export const API_ADDRESSES = {
  service: {
    health: 'get /health',
    ready: 'get /ready',
    metrics: 'get /metrics',
    openApi: 'get /openapi.json',
  },
  catalog: {
    settings: 'get /settings',
    languages: 'get /languages',
    currencies: 'get /currencies',
    localizations: 'get /localizations',
    countries: 'get /countries',
    staticPages: 'get /static-pages',
    staticPageBySlug: 'get /static-pages/slug/{slug}',
    staticPage: 'get /static-pages/{id}',
    socialLinks: 'get /social-links',
    packs: 'get /packs',
    tokenPricing: 'get /token-pricing',
    tokenQuote: 'get /token-pricing/quote',
  },
  account: {
    isAuth: 'get /is-auth',
    register: 'post /register',
    login: 'post /login',
    logout: 'post /logout',
    profile: 'get /user/profile',
    updateProfile: 'put /user/profile',
    changePassword: 'post /user/change-password',
    changeEmail: 'post /user/change-email',
    confirmEmailChange: 'get /user/change-email/confirm',
    requestPasswordResetLink: 'get /user/request-password-restore',
    requestPasswordReset: 'post /user/request-password-restore',
    restorePassword: 'put /user/restore-password',
    verifyEmail: 'get /email/verify/{id}/{hash}',
    resendVerification: 'post /email/verification-notification',
  },
  apiKeys: {
    list: 'get /user/api-keys',
    create: 'post /user/api-keys',
    revoke: 'delete /user/api-keys/{id}',
    webhookSecret: 'get /user/webhook-secret',
    rotateWebhookSecret: 'post /user/webhook-secret/rotate',
  },
  tokens: {
    ledger: 'get /user/ledger',
    ledgerCsv: 'get /user/ledger.csv',
  },
  payments: {
    checkout: 'post /deposit/checkout',
    depositStatus: 'get /deposit/status/{depositId}',
    redirect: 'get /deposit/redirect',
    stripeReturn: 'get /deposit/stripe-return',
    testCheckout: 'get /deposit/test-checkout',
    completeTestCheckout: 'post /deposit/test-checkout',
    stripeWebhook: 'post /webhooks/stripe',
    history: 'get /user/payment-history',
    receipt: 'get /user/payment-history/{depositId}/receipt',
    invoice: 'get /user/payment-history/{depositId}/invoice.pdf',
  },
  tools: {
    quote: 'get /tools/quote',
    rerun: 'post /jobs/{id}/rerun',
    status: 'get /tools/status',
  },
  jobs: {
    list: 'get /jobs',
    get: 'get /jobs/{id}',
    events: 'get /jobs/{id}/events',
    compose: 'post /jobs/{id}/compose',
    composePreview: 'post /jobs/{id}/compose/preview',
    matteDraft: 'get /jobs/{id}/matte-draft',
    saveMatteDraft: 'put /jobs/{id}/matte-draft',
    discardMatteDraft: 'delete /jobs/{id}/matte-draft',
    cancel: 'post /jobs/{id}/cancel',
    delete: 'delete /jobs/{id}',
    history: 'get /user/request-history',
    projects: 'get /user/projects',
  },
  batches: {
    create: 'post /batches',
    list: 'get /batches',
    get: 'get /batches/{id}',
    events: 'get /batches/{id}/events',
    cancel: 'post /batches/{id}/cancel',
    zip: 'get /batches/{id}/zip',
    retryItem: 'post /batches/{id}/items/{itemId}/retry',
  },
  admin: {
    session: 'get /admin/session',
    confirmPassword: 'post /admin/confirm-password',
    overview: 'get /admin/overview',
    jobs: 'get /admin/jobs',
    job: 'get /admin/jobs/{id}',
    refundJob: 'post /admin/jobs/{id}/refund',
    cancelJob: 'post /admin/jobs/{id}/cancel',
    deposits: 'get /admin/deposits',
    depositReceipt: 'get /admin/deposits/{id}/receipt',
    users: 'get /admin/users',
    user: 'get /admin/users/{id}',
    adjustBalance: 'post /admin/users/{id}/adjust',
    disableUser: 'post /admin/users/{id}/disable',
    enableUser: 'post /admin/users/{id}/enable',
    signOutUser: 'post /admin/users/{id}/sign-out',
    revokeUserKey: 'post /admin/users/{id}/api-keys/{keyId}/revoke',
    resendVerification: 'post /admin/users/{id}/resend-verification',
    audit: 'get /admin/audit',
    catalog: 'get /admin/catalog',
    catalogSetting: 'put /admin/catalog/settings/{key}',
    catalogAddPack: 'post /admin/catalog/packs',
    catalogOrderPacks: 'put /admin/catalog/packs/order',
    catalogEditPack: 'patch /admin/catalog/packs/{id}',
    catalogTiers: 'put /admin/catalog/tiers',
    catalogCurrency: 'put /admin/catalog/currencies/{code}',
    catalogDefaultCurrency: 'post /admin/catalog/currencies/{code}/default',
    catalogHideCurrency: 'post /admin/catalog/currencies/{code}/hide',
    catalogUnhideCurrency: 'post /admin/catalog/currencies/{code}/unhide',
    catalogPage: 'put /admin/catalog/pages/{slug}',
  },
} as const;

/** POST /tools/<name>: one call per tool of the catalogue (contracts/src/tools), so built from its names. */
export const toolAddress = <N extends string>(name: N) => `post /tools/${name}` as const;

/**
 * The remove.bg-compatible API: paths below REMOVEBG_BASE, outside /api (remove.bg's clients call
 * `<host>/v1.0/removebg`). docs/removebg-api.md describes it.
 */
export const REMOVEBG_ADDRESSES = {
  removeBg: {
    removeBg: 'post /removebg',
    account: 'get /account',
    improve: 'post /improve',
  },
} as const;

export const REMOVEBG_BASE = '/v1.0';

/** `'get /jobs/{id}'`: a route's method and path. */
export type RouteAddress = `${HttpMethod} /${string}`;
export type MethodOf<A> = A extends `${infer M extends HttpMethod} ${string}` ? M : never;
export type PathOf<A> = A extends `${HttpMethod} ${infer P}` ? P : never;

/** The method and path of an address. */
export function addressOf<const A extends string>(address: A): { method: MethodOf<A>; path: PathOf<A> } {
  const space = address.indexOf(' ');
  return { method: address.slice(0, space), path: address.slice(space + 1) } as {
    method: MethodOf<A>;
    path: PathOf<A>;
  };
}

export type ApiAddresses = typeof API_ADDRESSES;
export type RemoveBgAddresses = typeof REMOVEBG_ADDRESSES;

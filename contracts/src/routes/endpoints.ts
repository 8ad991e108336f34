import { TOOLS, type JobName } from '../tools';
import type { routes } from './index';
import type { PathParams, RouteSpec } from './route';
import type { ToolRoute } from './tools';

/**
 * The route table as the browser calls it: each entry's method and path, typed by the whole entry (its
 * params, query, body and reply types) but without its zod schemas, which stay out of the browser bundle
 * (this file imports zod-free modules only, and the table by type). Each line names its table entry by type, so
 * a method or path that differs from the table's does not compile.
 */
export interface Endpoint<R extends RouteSpec = RouteSpec> {
  readonly method: R['method'];
  readonly path: R['path'];
  /** Type only: the table entry this endpoint calls. */
  readonly route?: R;
}

type Table = typeof routes;

const at = <R extends RouteSpec>(method: R['method'], path: R['path']): Endpoint<R> => ({ method, path });

/** Every table entry the client calls, by the same area and name as in `routes`. */
export const endpoints = {
  catalog: {
    settings: at<Table['catalog']['settings']>('get', '/settings'),
    languages: at<Table['catalog']['languages']>('get', '/languages'),
    currencies: at<Table['catalog']['currencies']>('get', '/currencies'),
    localizations: at<Table['catalog']['localizations']>('get', '/localizations'),
    countries: at<Table['catalog']['countries']>('get', '/countries'),
    staticPages: at<Table['catalog']['staticPages']>('get', '/static-pages'),
    staticPageBySlug: at<Table['catalog']['staticPageBySlug']>('get', '/static-pages/slug/{slug}'),
    staticPage: at<Table['catalog']['staticPage']>('get', '/static-pages/{id}'),
    socialLinks: at<Table['catalog']['socialLinks']>('get', '/social-links'),
    packs: at<Table['catalog']['packs']>('get', '/packs'),
    tokenPricing: at<Table['catalog']['tokenPricing']>('get', '/token-pricing'),
  },
  account: {
    isAuth: at<Table['account']['isAuth']>('get', '/is-auth'),
    register: at<Table['account']['register']>('post', '/register'),
    login: at<Table['account']['login']>('post', '/login'),
    logout: at<Table['account']['logout']>('post', '/logout'),
    profile: at<Table['account']['profile']>('get', '/user/profile'),
    updateProfile: at<Table['account']['updateProfile']>('put', '/user/profile'),
    changePassword: at<Table['account']['changePassword']>('post', '/user/change-password'),
    changeEmail: at<Table['account']['changeEmail']>('post', '/user/change-email'),
    requestPasswordResetLink: at<Table['account']['requestPasswordResetLink']>('get', '/user/request-password-restore'),
    restorePassword: at<Table['account']['restorePassword']>('put', '/user/restore-password'),
    resendVerification: at<Table['account']['resendVerification']>('post', '/email/verification-notification'),
  },
  apiKeys: {
    list: at<Table['apiKeys']['list']>('get', '/user/api-keys'),
    create: at<Table['apiKeys']['create']>('post', '/user/api-keys'),
    revoke: at<Table['apiKeys']['revoke']>('delete', '/user/api-keys/{id}'),
    webhookSecret: at<Table['apiKeys']['webhookSecret']>('get', '/user/webhook-secret'),
    rotateWebhookSecret: at<Table['apiKeys']['rotateWebhookSecret']>('post', '/user/webhook-secret/rotate'),
  },
  tokens: {
    ledger: at<Table['tokens']['ledger']>('get', '/user/ledger'),
  },
  payments: {
    checkout: at<Table['payments']['checkout']>('post', '/deposit/checkout'),
    depositStatus: at<Table['payments']['depositStatus']>('get', '/deposit/status/{depositId}'),
    history: at<Table['payments']['history']>('get', '/user/payment-history'),
    receipt: at<Table['payments']['receipt']>('get', '/user/payment-history/{depositId}/receipt'),
  },
  tools: {
    run: Object.fromEntries(TOOLS.map(({ name }) => [name, at('post', `/tools/${name}`)])) as Record<
      JobName,
      Endpoint<ToolRoute>
    >,
    quote: at<Table['tools']['quote']>('get', '/tools/quote'),
    rerun: at<Table['tools']['rerun']>('post', '/jobs/{id}/rerun'),
    status: at<Table['tools']['status']>('get', '/tools/status'),
  },
  jobs: {
    list: at<Table['jobs']['list']>('get', '/jobs'),
    get: at<Table['jobs']['get']>('get', '/jobs/{id}'),
    cancel: at<Table['jobs']['cancel']>('post', '/jobs/{id}/cancel'),
    compose: at<Table['jobs']['compose']>('post', '/jobs/{id}/compose'),
    composePreview: at<Table['jobs']['composePreview']>('post', '/jobs/{id}/compose/preview'),
    matteDraft: at<Table['jobs']['matteDraft']>('get', '/jobs/{id}/matte-draft'),
    saveMatteDraft: at<Table['jobs']['saveMatteDraft']>('put', '/jobs/{id}/matte-draft'),
    discardMatteDraft: at<Table['jobs']['discardMatteDraft']>('delete', '/jobs/{id}/matte-draft'),
    delete: at<Table['jobs']['delete']>('delete', '/jobs/{id}'),
    history: at<Table['jobs']['history']>('get', '/user/request-history'),
    projects: at<Table['jobs']['projects']>('get', '/user/projects'),
  },
  batches: {
    create: at<Table['batches']['create']>('post', '/batches'),
    list: at<Table['batches']['list']>('get', '/batches'),
    get: at<Table['batches']['get']>('get', '/batches/{id}'),
    cancel: at<Table['batches']['cancel']>('post', '/batches/{id}/cancel'),
    retryItem: at<Table['batches']['retryItem']>('post', '/batches/{id}/items/{itemId}/retry'),
  },
  admin: {
    confirmPassword: at<Table['admin']['confirmPassword']>('post', '/admin/confirm-password'),
    overview: at<Table['admin']['overview']>('get', '/admin/overview'),
    jobs: at<Table['admin']['jobs']>('get', '/admin/jobs'),
    job: at<Table['admin']['job']>('get', '/admin/jobs/{id}'),
    refundJob: at<Table['admin']['refundJob']>('post', '/admin/jobs/{id}/refund'),
    cancelJob: at<Table['admin']['cancelJob']>('post', '/admin/jobs/{id}/cancel'),
    deposits: at<Table['admin']['deposits']>('get', '/admin/deposits'),
    users: at<Table['admin']['users']>('get', '/admin/users'),
    user: at<Table['admin']['user']>('get', '/admin/users/{id}'),
    adjustBalance: at<Table['admin']['adjustBalance']>('post', '/admin/users/{id}/adjust'),
    disableUser: at<Table['admin']['disableUser']>('post', '/admin/users/{id}/disable'),
    enableUser: at<Table['admin']['enableUser']>('post', '/admin/users/{id}/enable'),
    signOutUser: at<Table['admin']['signOutUser']>('post', '/admin/users/{id}/sign-out'),
    revokeUserKey: at<Table['admin']['revokeUserKey']>('post', '/admin/users/{id}/api-keys/{keyId}/revoke'),
    resendVerification: at<Table['admin']['resendVerification']>('post', '/admin/users/{id}/resend-verification'),
    audit: at<Table['admin']['audit']>('get', '/admin/audit'),
    catalog: at<Table['admin']['catalog']>('get', '/admin/catalog'),
    catalogSetting: at<Table['admin']['catalogSetting']>('put', '/admin/catalog/settings/{key}'),
    catalogAddPack: at<Table['admin']['catalogAddPack']>('post', '/admin/catalog/packs'),
    catalogOrderPacks: at<Table['admin']['catalogOrderPacks']>('put', '/admin/catalog/packs/order'),
    catalogEditPack: at<Table['admin']['catalogEditPack']>('patch', '/admin/catalog/packs/{id}'),
    catalogTiers: at<Table['admin']['catalogTiers']>('put', '/admin/catalog/tiers'),
    catalogCurrency: at<Table['admin']['catalogCurrency']>('put', '/admin/catalog/currencies/{code}'),
    catalogDefaultCurrency: at<Table['admin']['catalogDefaultCurrency']>(
      'post',
      '/admin/catalog/currencies/{code}/default',
    ),
    catalogHideCurrency: at<Table['admin']['catalogHideCurrency']>('post', '/admin/catalog/currencies/{code}/hide'),
    catalogUnhideCurrency: at<Table['admin']['catalogUnhideCurrency']>(
      'post',
      '/admin/catalog/currencies/{code}/unhide',
    ),
    catalogPage: at<Table['admin']['catalogPage']>('put', '/admin/catalog/pages/{slug}'),
  },
} satisfies { [A in keyof Table]?: { [K in keyof Table[A]]?: unknown } };

/** The endpoint's path with its parameters filled in (each encoded as one path segment). */
export function endpointPath<R extends RouteSpec>(endpoint: Endpoint<R>, params: PathParams<R['path']>): string {
  const values = params as Record<string, string>;
  return endpoint.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? ''));
}

import { jobViewSchema } from '../api-schemas';
import { listPageSchema } from '../list-page';
import {
  adminAdjustSchema,
  adminAuditQuerySchema,
  adminConfirmPasswordSchema,
  adminDepositsQuerySchema,
  adminJobsQuerySchema,
  adminRefundSchema,
  adminUsersQuerySchema,
  adminAdjustResultSchema,
  adminAuditRowSchema,
  adminConfirmedSchema,
  adminDepositRowSchema,
  adminDisabledSchema,
  adminJobDetailSchema,
  adminJobSummarySchema,
  adminOverviewSchema,
  adminRefundResultSchema,
  adminSessionViewSchema,
  adminUserDetailSchema,
  adminUserSummarySchema,
} from '../admin';
import {
  adminCurrencySchema,
  adminPackAddSchema,
  adminPackEditSchema,
  adminPackOrderSchema,
  adminPageSchema,
  adminSettingSchema,
  adminTiersSchema,
  adminCatalogViewSchema,
} from '../admin-catalog';
import { defineRoutes } from './route';

const TAG = 'Operator console';

/**
 * The operator console (docs/operations.md#operator-console), all `admin`: an operator's browser session.
 * Money and account changes also need a recently confirmed password (the server's requireReauth). Not in the
 * public OpenAPI document.
 */
export const adminRoutes = defineRoutes('admin', {
  session: {
    tag: TAG,
    summary: 'The operator and until when the password confirmation holds',
    auth: 'admin',
    reply: { kind: 'json', payload: adminSessionViewSchema },
  },
  confirmPassword: {
    tag: TAG,
    summary: "Confirm the operator's password (opens money and account changes for a while)",
    auth: 'admin',
    body: adminConfirmPasswordSchema,
    reply: { kind: 'json', payload: adminConfirmedSchema },
  },
  overview: {
    tag: TAG,
    summary: 'Queues, workers and the day in figures',
    auth: 'admin',
    reply: { kind: 'json', payload: adminOverviewSchema },
  },
  jobs: {
    tag: TAG,
    summary: 'Search jobs',
    auth: 'admin',
    query: adminJobsQuerySchema,
    reply: { kind: 'json', payload: listPageSchema(adminJobSummarySchema) },
  },
  job: {
    tag: TAG,
    summary: 'One job with its charges (audited)',
    auth: 'admin',
    reply: { kind: 'json', payload: adminJobDetailSchema },
  },
  refundJob: {
    tag: TAG,
    summary: "Refund a job's charge (password confirmation needed)",
    auth: 'admin',
    body: adminRefundSchema,
    reply: { kind: 'json', payload: adminRefundResultSchema },
  },
  cancelJob: {
    tag: TAG,
    summary: "Cancel any user's open job (refunded)",
    auth: 'admin',
    reply: { kind: 'json', payload: jobViewSchema },
  },
  deposits: {
    tag: TAG,
    summary: 'Search payments',
    auth: 'admin',
    query: adminDepositsQuerySchema,
    reply: { kind: 'json', payload: listPageSchema(adminDepositRowSchema) },
  },
  depositReceipt: {
    tag: TAG,
    summary: "A payment's receipt (audited)",
    auth: 'admin',
    reply: { kind: 'html', description: 'HTML receipt' },
  },
  users: {
    tag: TAG,
    summary: 'Search users',
    auth: 'admin',
    query: adminUsersQuerySchema,
    reply: { kind: 'json', payload: listPageSchema(adminUserSummarySchema) },
  },
  user: {
    tag: TAG,
    summary: 'One user with balance, ledger, payments, jobs and keys (audited)',
    auth: 'admin',
    reply: { kind: 'json', payload: adminUserDetailSchema },
  },
  adjustBalance: {
    tag: TAG,
    summary: "Adjust a user's balance (password confirmation needed; Idempotency-Key)",
    auth: 'admin',
    body: adminAdjustSchema,
    reply: { kind: 'json', payload: adminAdjustResultSchema },
  },
  disableUser: {
    tag: TAG,
    summary: 'Disable an account (password confirmation needed)',
    auth: 'admin',
    reply: { kind: 'json', payload: adminDisabledSchema },
  },
  enableUser: {
    tag: TAG,
    summary: 'Enable an account again (password confirmation needed)',
    auth: 'admin',
    reply: { kind: 'json', payload: adminDisabledSchema },
  },
  signOutUser: {
    tag: TAG,
    summary: 'End every session of a user (password confirmation needed)',
    auth: 'admin',
    reply: { kind: 'json' },
  },
  revokeUserKey: {
    tag: TAG,
    summary: "Revoke a user's API key (password confirmation needed)",
    auth: 'admin',
    reply: { kind: 'json' },
  },
  resendVerification: {
    tag: TAG,
    summary: "Send a user's verification email again",
    auth: 'admin',
    reply: { kind: 'json' },
  },
  audit: {
    tag: TAG,
    summary: 'The audit log',
    auth: 'admin',
    query: adminAuditQuerySchema,
    reply: { kind: 'json', payload: listPageSchema(adminAuditRowSchema) },
  },
  catalog: {
    tag: TAG,
    summary: 'The catalog (settings, packs, tiers, currencies, pages) with the warnings the CLI prints',
    auth: 'admin',
    reply: { kind: 'json', payload: adminCatalogViewSchema },
  },
  catalogSetting: {
    tag: TAG,
    summary: 'Change a setting (password confirmed, audited)',
    auth: 'admin',
    body: adminSettingSchema,
    reply: { kind: 'json', payload: adminCatalogViewSchema },
  },
  catalogAddPack: {
    tag: TAG,
    summary: 'Add a pack (password confirmed, audited)',
    auth: 'admin',
    body: adminPackAddSchema,
    reply: { kind: 'json', status: 201, payload: adminCatalogViewSchema },
  },
  catalogOrderPacks: {
    tag: TAG,
    summary: 'Reorder the packs (password confirmed, audited)',
    auth: 'admin',
    body: adminPackOrderSchema,
    reply: { kind: 'json', payload: adminCatalogViewSchema },
  },
  catalogEditPack: {
    tag: TAG,
    summary: 'Edit or hide a pack (password confirmed, audited)',
    auth: 'admin',
    body: adminPackEditSchema,
    reply: { kind: 'json', payload: adminCatalogViewSchema },
  },
  catalogTiers: {
    tag: TAG,
    summary: 'Replace the custom-amount tiers (password confirmed, audited)',
    auth: 'admin',
    body: adminTiersSchema,
    reply: { kind: 'json', payload: adminCatalogViewSchema },
  },
  catalogCurrency: {
    tag: TAG,
    summary: "Set a currency's rate and symbol (password confirmed, audited)",
    auth: 'admin',
    body: adminCurrencySchema,
    reply: { kind: 'json', payload: adminCatalogViewSchema },
  },
  catalogDefaultCurrency: {
    tag: TAG,
    summary: 'Make a currency the default (password confirmed, audited)',
    auth: 'admin',
    reply: { kind: 'json', payload: adminCatalogViewSchema },
  },
  catalogHideCurrency: {
    tag: TAG,
    summary: 'Hide a currency (password confirmed, audited)',
    auth: 'admin',
    reply: { kind: 'json', payload: adminCatalogViewSchema },
  },
  catalogUnhideCurrency: {
    tag: TAG,
    summary: 'Show a hidden currency again (password confirmed, audited)',
    auth: 'admin',
    reply: { kind: 'json', payload: adminCatalogViewSchema },
  },
  catalogPage: {
    tag: TAG,
    summary: 'Create or change a static page (password confirmed, audited)',
    auth: 'admin',
    body: adminPageSchema,
    reply: { kind: 'json', payload: adminCatalogViewSchema },
  },
});

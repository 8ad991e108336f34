import { ledgerPageSchema, ledgerQuerySchema } from '../ledger';
import { defineRoute } from './route';

/** The account's token activity. */
export const tokenRoutes = {
  ledger: defineRoute({
    method: 'get',
    path: '/user/ledger',
    tag: 'Tokens',
    summary: 'Token activity, newest first, 20 a page',
    auth: 'key',
    query: ledgerQuerySchema,
    reply: { kind: 'json', payload: ledgerPageSchema },
  }),
  ledgerCsv: defineRoute({
    method: 'get',
    path: '/user/ledger.csv',
    tag: 'Tokens',
    summary: 'All token activity as CSV',
    auth: 'key',
    reply: { kind: 'csv', description: 'id,created_at,kind,amount,balance_after,description,job_id,deposit_id' },
  }),
};

import { ledgerPageSchema, ledgerQuerySchema } from '../ledger';
import { defineRoutes } from './route';

/** The account's token activity. */
export const tokenRoutes = defineRoutes('tokens', {
  ledger: {
    tag: 'Tokens',
    summary: 'Token activity, newest first, 20 a page',
    auth: 'key',
    query: ledgerQuerySchema,
    reply: { kind: 'json', payload: ledgerPageSchema },
  },
  ledgerCsv: {
    tag: 'Tokens',
    summary: 'All token activity as CSV',
    auth: 'key',
    reply: { kind: 'csv', description: 'id,created_at,kind,amount,balance_after,description,job_id,deposit_id' },
  },
});

import { z } from 'zod';
import { listPageSchema } from './list-page';

/**
 * Token activity (GET /api/user/ledger): the user's ledger as the account area and the API show it.
 * The database keeps both sign-up grants as kind "grant"; the view names them `free` and `welcome`.
 */
export const LEDGER_VIEW_KINDS = ['free', 'welcome', 'purchase', 'spend', 'refund', 'adjustment', 'reversal'] as const;
export type LedgerViewKind = (typeof LEDGER_VIEW_KINDS)[number];

/** Rows per page of GET /api/user/ledger. */
export const LEDGER_PAGE_SIZE = 20;

export const ledgerEntrySchema = z.object({
  id: z.string().describe('Ledger row id (increasing; newest first in lists)'),
  created_at: z.string().describe('ISO 8601 time'),
  kind: z.enum(LEDGER_VIEW_KINDS),
  amount: z.number().describe('Signed change in tokens, exact to 0.1'),
  balance_after: z.number().describe('Balance in tokens right after this entry'),
  description: z.string(),
  job_id: z.string().nullable(),
  deposit_id: z.string().nullable(),
});
export type LedgerEntryView = z.infer<typeof ledgerEntrySchema>;

export const ledgerPageSchema = listPageSchema(ledgerEntrySchema);
export type LedgerPage = z.infer<typeof ledgerPageSchema>;

export const ledgerQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});

/** Column order of GET /api/user/ledger.csv (same fields as the JSON entries). */
export const LEDGER_CSV_COLUMNS = [
  'id',
  'created_at',
  'kind',
  'amount',
  'balance_after',
  'description',
  'job_id',
  'deposit_id',
] as const;

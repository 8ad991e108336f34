import { Readable, type Transform } from 'node:stream';
import {
  LEDGER_CSV_COLUMNS,
  LEDGER_PAGE_SIZE,
  TOOL_LABELS,
  tenthsToTokens,
  type JobName,
  type LedgerEntryView,
  type LedgerPage,
  type LedgerViewKind,
} from '@imagestudio/contracts';
import { translatorFor } from '../catalog';
import { csvStream } from '../../lib/csv';
import { welcomeGrantKey } from '../auth';
import { ledgerRepository as repo, type LedgerRow } from '../ledger';
import type { TokenActivityDeps } from './token-activity.deps';

function viewKind(row: LedgerRow): LedgerViewKind {
  if (row.kind !== 'grant') return row.kind;
  // Both sign-up grants are "grant" rows; the welcome bonus is told apart by its idempotency key.
  return row.idempotency_key === welcomeGrantKey(row.user_id) ? 'welcome' : 'free';
}

const textOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function description(row: LedgerRow, kind: LedgerViewKind): string {
  const tool = textOf(row.metadata.tool) as JobName | null;
  const label = tool && tool in TOOL_LABELS ? TOOL_LABELS[tool] : null;
  if (kind === 'spend' && label) return label;
  if (kind === 'refund' && label) return `Refund: ${label}`;
  return row.reason ?? kind;
}

/** Puts an English ledger description into the reader's language (null translator: the default language). */
type Describe = (text: string) => string;
const asIs: Describe = (text) => text;

/**
 * One ledger row as the API shows it; amounts are exact tokens (one decimal). `describe` puts the English
 * description ("Token purchase", "Background removal", "Refund: Upscaling") into the reader's language through
 * the `server.ledger.*` strings; an operator's own reason has no translation and stays as written.
 */
export function presentEntry(row: LedgerRow, describe: Describe = asIs): LedgerEntryView {
  const kind = viewKind(row);
  return {
    id: String(row.id),
    created_at: new Date(row.created_at).toISOString(),
    kind,
    amount: tenthsToTokens(row.delta_tenths),
    balance_after: tenthsToTokens(row.balance_after_tenths),
    description: describe(description(row, kind)),
    job_id: textOf(row.metadata.job_id),
    deposit_id: textOf(row.metadata.deposit_id),
  };
}

/** The describer of the language `langId` (an id or a code; the default language when absent). */
async function describerFor(ctx: TokenActivityDeps, langId: string | undefined): Promise<Describe> {
  const translate = await translatorFor(ctx, langId);
  return translate ? (text) => translate(text) ?? text : asIs;
}

/** GET /api/user/ledger?page=: the user's entries, newest first, LEDGER_PAGE_SIZE a page, in `langId`. */
export async function ledgerPage(
  ctx: TokenActivityDeps,
  userId: string,
  page: number,
  langId?: string,
): Promise<LedgerPage> {
  const [rows, total, describe] = await Promise.all([
    repo.listForUser(ctx.db, userId, LEDGER_PAGE_SIZE, (page - 1) * LEDGER_PAGE_SIZE),
    repo.countForUser(ctx.db, userId),
    describerFor(ctx, langId),
  ]);
  return {
    items: rows.map((row) => presentEntry(row, describe)),
    page,
    per_page: LEDGER_PAGE_SIZE,
    total,
    last_page: Math.max(1, Math.ceil(total / LEDGER_PAGE_SIZE)),
  };
}

/** Tenths as an exact decimal text with one digit after the point ("-1.5", "10.0"), for the CSV. */
function tenthsText(tenths: string | number): string {
  const n = BigInt(tenths);
  const abs = n < 0n ? -n : n;
  return `${n < 0n ? '-' : ''}${abs / 10n}.${abs % 10n}`;
}

/** Ledger rows one query of the CSV export reads (about 150 KB of CSV). */
const CSV_PAGE_ROWS = 1000;

/** A ledger row as a CSV record: the API's view with exact decimal amounts ("-1.5", "10.0"). */
function csvRecord(row: LedgerRow): Record<string, unknown> {
  return {
    ...presentEntry(row),
    amount: tenthsText(row.delta_tenths),
    balance_after: tenthsText(row.balance_after_tenths),
  };
}

/**
 * The whole ledger of a user as CSV (newest first), for a long history never held in memory. The rows are read
 * a page at a time with short queries, each only when the reader has taken the one before, so a client that stops
 * reading holds no database connection (an open cursor per stalled download once filled the pool and stopped
 * the API). The first page is read before anything is sent, so a database failure is still an error reply.
 * Operator-written reasons pass through csvCell, so `=HYPERLINK(...)` opens as text in a spreadsheet.
 */
export async function ledgerCsv(ctx: TokenActivityDeps, userId: string): Promise<{ rows: Readable; csv: Transform }> {
  const first = await repo.pageBeforeId(ctx.db, userId, null, CSV_PAGE_ROWS);
  async function* records(): AsyncGenerator<Record<string, unknown>> {
    let page = first;
    for (;;) {
      for (const row of page) yield csvRecord(row);
      if (page.length < CSV_PAGE_ROWS) return;
      page = await repo.pageBeforeId(ctx.db, userId, page.at(-1)!.id, CSV_PAGE_ROWS);
    }
  }
  return { rows: Readable.from(records()), csv: csvStream(LEDGER_CSV_COLUMNS) };
}

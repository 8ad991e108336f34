/** What other modules may use of ledger; everything else in this folder is internal. */
export * as ledgerRepository from './ledger.repository';
export type { LedgerRow } from './ledger.repository';
export { applyEntry, applyEntryNow, assertAffordable, ledgerSum, listForUser, lockCovering } from './ledger.service';

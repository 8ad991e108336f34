import { stringify, type Stringifier } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';

/** A plain decimal number ("-2.5", "10.0"): a spreadsheet reads it as a number, never as a formula. */
const NUMBER = /^[-+]?\d+(\.\d+)?$/;
/** What a spreadsheet may run as a formula (or DDE) when a cell starts with it. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell made safe to open in a spreadsheet: one that starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return gets a leading apostrophe (`=HYPERLINK(...)` -> `'=HYPERLINK(...)`), so Excel, LibreOffice and
 * Google Sheets show it as text instead of running it. Plain numbers stay numbers ("-2.5").
 */
export function csvCell(text: string): string {
  return FORMULA_START.test(text) && !NUMBER.test(text) ? `'${text}` : text;
}

/** The options of every CSV the API writes: a header row, the given columns, every string through csvCell. */
function options(columns: readonly string[]) {
  return { header: true, columns: [...columns], cast: { string: csvCell } };
}

/** A streaming CSV writer (object rows in, CSV text out) for long exports such as ledger.csv. */
export function csvStream(columns: readonly string[]): Stringifier {
  return stringify(options(columns));
}

/** A whole CSV at once, for small files such as a batch ZIP's failed.csv. */
export function csvText(rows: readonly Record<string, unknown>[], columns: readonly string[]): string {
  return stringifySync([...rows], options(columns));
}

import { formatMoney, localeFor } from '@imagestudio/contracts';

export { localeFor };

let activeLocale = 'en-US';

/**
 * Sets the number and money style to the active language's (German: "1.234,5"). The language store calls
 * it when a language's texts are applied, so numbers change together with the words around them.
 */
export function setNumberLocale(languageCode: string): void {
  activeLocale = localeFor(languageCode);
}

/** The Intl locale for numbers and money in the active language. */
export function numberLocale(): string {
  return activeLocale;
}

/** Token amounts have at most one decimal (they step by 0.1): 10 -> "10", 10.5 -> "10.5" ("10,5" in German). */
export function formatTokens(amount: number): string {
  return new Intl.NumberFormat(activeLocale, { maximumFractionDigits: 1 }).format(amount || 0);
}

/** An amount of money in its currency, in the active language's style ("8,50 €" in German, "€8.50" in English). */
export function formatCurrency(amount: number, currency: string): string {
  return formatMoney(amount, currency.toUpperCase(), `${currency} `, activeLocale);
}

/**
 * A token amount as an input field shows it: the language's decimal sign ("200,9" in German, beside the
 * "200,9 Tokens" it echoes) and no grouping, so the text stays one number to edit.
 */
export function formatTokensInput(amount: number): string {
  return new Intl.NumberFormat(activeLocale, { maximumFractionDigits: 1, useGrouping: false }).format(amount || 0);
}

/** A date-time string as a Date; null when missing or invalid. */
function dateOf(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Dates, one style per language everywhere (join date, history, keys, activity): the language's medium
 * date, "Nov 21, 2026" in English, "21.11.2026" in German; blank when missing or invalid.
 */
export function formatDate(value: string | null | undefined): string {
  const date = dateOf(value);
  return date ? new Intl.DateTimeFormat(activeLocale, { dateStyle: 'medium' }).format(date) : '';
}

/** A date with its time of day in the active language's style ("Nov 21, 2026, 2:05 PM", "21.11.2026, 14:05"). */
export function formatDateTime(value: string | null | undefined): string {
  const date = dateOf(value);
  return date ? new Intl.DateTimeFormat(activeLocale, { dateStyle: 'medium', timeStyle: 'short' }).format(date) : '';
}

/** Time of day in the active language's style ("2:05 PM", "14:05"); blank when missing or invalid. */
export function formatTime(value: string | null | undefined): string {
  const date = dateOf(value);
  return date ? new Intl.DateTimeFormat(activeLocale, { hour: 'numeric', minute: '2-digit' }).format(date) : '';
}

/**
 * A file's size in the active language's style, in kB below a megabyte and in MB above ("412 kB", "1.2 MB",
 * "1,2 MB" in German); decimal units, as file managers and browsers' download lists show them.
 */
export function formatFileSize(bytes: number): string {
  const megabytes = bytes >= 1e6;
  return new Intl.NumberFormat(activeLocale, {
    style: 'unit',
    unit: megabytes ? 'megabyte' : 'kilobyte',
    maximumFractionDigits: megabytes ? 1 : 0,
  }).format(megabytes ? bytes / 1e6 : Math.max(1, bytes / 1e3));
}

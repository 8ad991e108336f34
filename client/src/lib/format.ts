/** Number style per language code of the catalogue; others use their own code as the Intl locale. */
const NUMBER_LOCALES: Record<string, string> = { en: 'en-US', de: 'de-DE' };

let activeLocale = 'en-US';

/**
 * Sets the number and money style to the active language's (German: "1.234,5"). The language store calls
 * it when a language's texts are applied, so numbers change together with the words around them.
 */
export function setNumberLocale(languageCode: string): void {
  activeLocale = localeFor(languageCode);
}

/** The Intl locale for a catalogue language code (one Intl cannot use falls back to US English). */
export function localeFor(languageCode: string): string {
  const locale = NUMBER_LOCALES[languageCode] ?? languageCode;
  try {
    new Intl.NumberFormat(locale);
    return locale;
  } catch {
    return 'en-US';
  }
}

/** The Intl locale for numbers and money in the active language. */
export function numberLocale(): string {
  return activeLocale;
}

/** Token amounts have at most one decimal (they step by 0.1): 10 -> "10", 10.5 -> "10.5" ("10,5" in German). */
export function formatTokens(amount: number): string {
  return new Intl.NumberFormat(activeLocale, { maximumFractionDigits: 1 }).format(amount || 0);
}

/** Join dates: abbreviated month, day, year ("Nov 21, 2026"); blank when missing or invalid. */
export function formatJoinDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(date);
}

/** Other dates: DD.MM.YYYY; blank when missing or invalid. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const dd = String(date.getDate()).padStart(2, '0');
  const mm = String(date.getMonth() + 1).padStart(2, '0');
  return `${dd}.${mm}.${date.getFullYear()}`;
}

/** Time of day in the active language's style ("2:05 PM", "14:05"); blank when missing or invalid. */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(activeLocale, { hour: 'numeric', minute: '2-digit' }).format(date);
}

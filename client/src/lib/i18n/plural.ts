import { numberLocale } from '../format';
import type { MessageKey } from './en';
import type { MessageVars, Translate } from './translate';

/** The two forms of a counted text in the strings table: `<key>.one` ("{n} token") and `<key>.other`. */
export interface PluralKeys {
  one: MessageKey;
  other: MessageKey;
}

/**
 * A counted text in the active language: Intl.PluralRules picks the form for `count` (1 is "one" in English
 * and German; 1.5 and 0 are "other"), and `{n}` is the count as `shown` writes it (the language's decimals).
 */
export function plural(
  t: Translate,
  keys: PluralKeys,
  count: number,
  shown: string = String(count),
  vars: MessageVars = {},
): string {
  const form = new Intl.PluralRules(numberLocale()).select(count) === 'one' ? keys.one : keys.other;
  return t(form, { ...vars, n: shown });
}

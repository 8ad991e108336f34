import { en, type MessageKey, type Messages } from './en';

/** Variables substituted into `{name}` placeholders. */
export type MessageVars = Record<string, string | number>;

/** Fills `{name}` placeholders; unknown placeholders stay visible so a missing variable is noticed. */
export function interpolate(text: string, vars?: MessageVars): string {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (match, name: string) => (name in vars ? String(vars[name]) : match));
}

/** Looks a key up in the active strings, then English, then shows the key itself. */
export function translate(strings: Messages, key: MessageKey, vars?: MessageVars): string {
  const text = strings[key] ?? en[key] ?? key;
  return interpolate(text, vars);
}

/** The signature every component and store uses: `t('shell.nav.home')`. */
export type Translate = (key: MessageKey, vars?: MessageVars) => string;

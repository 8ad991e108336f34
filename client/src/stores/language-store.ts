import { makeAutoObservable, runInAction } from 'mobx';
import { endpoints } from '@imagestudio/contracts';
import { STORAGE_KEYS } from '../config/constants';
import type { ApiClient } from '../lib/api/api-client';
import { translate, type MessageKey, type Messages, type MessageVars } from '../lib/i18n';
import { localeFor, setNumberLocale } from '../lib/format';
import { storage } from '../lib/storage';
import type { LanguageView } from '@imagestudio/contracts';

/**
 * The choice: the stored languageId if it is in the list; else, on a first visit, the first of the browser's
 * languages (`preferred`, navigator.languages: "de-DE" matches "de") that the list has; else the default-flagged
 * one, else the first.
 */
export function chooseLanguage(
  languages: LanguageView[],
  storedId: string | null,
  preferred: readonly string[] = [],
): LanguageView | null {
  const stored = languages.find((lang) => String(lang.id) === storedId);
  if (stored) return stored;
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split('-')[0];
    const match = languages.find((lang) => lang.code.toLowerCase() === primary);
    if (match) return match;
  }
  return languages.find((lang) => Number(lang.default) === 1) ?? languages[0] ?? null;
}

/** The browser's languages in its order of preference; none outside a browser. */
function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

/** Languages, the active one, and its server strings merged over English. */
export class LanguageStore {
  languages: LanguageView[] = [];
  activeId: number | null = null;
  strings: Messages = {};
  error: string | null = null;

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<LanguageStore, 'api'>(this, { api: false });
  }

  get active(): LanguageView | null {
    return this.languages.find((lang) => lang.id === this.activeId) ?? null;
  }

  /** The Intl locale for numbers and money in the active language ("de-DE" for German). */
  get numberLocale(): string {
    return localeFor(this.active?.code ?? 'en');
  }

  /** Translates a key with the active strings, falling back to English. */
  t = (key: MessageKey, vars?: MessageVars): string => translate(this.strings, key, vars);

  /**
   * The active language's text for an operator-editable catalogue entry (pack names, style presets), or
   * the catalogue's own text when the strings table has none for it.
   */
  catalogText = (key: string, fallback: string): string => this.strings[key] ?? fallback;

  /** Loads the language list, picks the active language and loads its strings. */
  async load(): Promise<void> {
    try {
      const reply = await this.api.call(endpoints.catalog.languages, {}, { skipCommonParams: true });
      if (reply.status !== 'OK' || !Array.isArray(reply.payload)) throw new Error('bad reply');
      const list = reply.payload;
      const chosen = chooseLanguage(list, storage.get(STORAGE_KEYS.languageId), browserLanguages());
      runInAction(() => {
        this.languages = list;
        this.activeId = chosen?.id ?? null;
        this.error = null;
      });
      if (chosen) await this.loadStrings(chosen.id);
    } catch {
      runInAction(() => {
        this.error = this.t('shell.errors.loadLanguages');
      });
    }
  }

  /** Switches language, remembers it, and reloads the strings. */
  async select(id: number): Promise<void> {
    if (!this.languages.some((lang) => lang.id === id)) return;
    this.activeId = id;
    storage.set(STORAGE_KEYS.languageId, String(id));
    await this.loadStrings(id);
  }

  private async loadStrings(id: number): Promise<void> {
    try {
      const reply = await this.api.call(
        endpoints.catalog.localizations,
        { query: { lang_id: id } },
        { skipCommonParams: true },
      );
      const map = reply.payload && typeof reply.payload === 'object' ? reply.payload : {};
      runInAction(() => {
        // Only string values: a malformed entry must not replace an English fallback with garbage.
        this.strings = Object.fromEntries(Object.entries(map).filter(([, v]) => typeof v === 'string'));
        if (this.active) setNumberLocale(this.active.code);
        if (typeof document !== 'undefined' && this.active) document.documentElement.lang = this.active.code;
      });
    } catch {
      runInAction(() => {
        this.strings = {};
      });
    }
  }
}

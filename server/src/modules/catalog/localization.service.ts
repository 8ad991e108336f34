import type { Request } from 'express';
import { catalogCache, type CatalogDeps } from './catalog.cache';
import { requestParam } from './catalog.http';
import * as repo from './localization.repository';
import type { LanguageRow } from './localization.repository';
import type { LanguageView } from '@imagestudio/contracts';

/** A language as GET /api/languages sends it (`default` 1 marks the default language). */
function languages(deps: CatalogDeps): Promise<LanguageRow[]> {
  return catalogCache(deps).get('languages', () => repo.listLanguages(deps.db));
}

/** Every language row in display order (cached). */
export const listLanguageRows = languages;

/** Every language in display order. */
export async function listLanguages(deps: CatalogDeps): Promise<LanguageView[]> {
  return (await languages(deps)).map((l) => ({
    id: l.id,
    code: l.code,
    title: l.title,
    default: l.is_default ? 1 : 0,
  }));
}

/** The language of a `lang_id` (an id, or a code such as "de"); the default language when absent or unknown. */
export async function resolveLanguage(deps: CatalogDeps, langId: string | undefined): Promise<LanguageRow> {
  const all = await languages(deps);
  const fallback = all.find((l) => l.is_default) ?? all[0];
  if (!fallback) throw new Error('no languages are seeded');
  if (langId === undefined) return fallback;
  return all.find((l) => String(l.id) === langId || l.code === langId.toLowerCase()) ?? fallback;
}

/**
 * The language a request asks for, among `all`: `lang_id` (an id or a code, in the query, the JSON or
 * form body, or a multipart field once parsed), then the Accept-Language header, else the default.
 */
export function pickRequestLanguage(all: LanguageRow[], req: Request): LanguageRow | undefined {
  const langId = requestParam(req, 'lang_id');
  const byParam =
    langId === undefined ? undefined : all.find((l) => String(l.id) === langId || l.code === langId.toLowerCase());
  if (byParam) return byParam;
  const accepted = req.headers['accept-language'] ? req.acceptsLanguages(all.map((l) => l.code)) : false;
  return all.find((l) => l.code === accepted) ?? all.find((l) => l.is_default) ?? all[0];
}

/** The language of a request (pickRequestLanguage over the catalog's languages). */
export async function requestLanguage(deps: CatalogDeps, req: Request): Promise<LanguageRow> {
  const language = pickRequestLanguage(await languages(deps), req);
  if (!language) throw new Error('no languages are seeded');
  return language;
}

function stringsOf(deps: CatalogDeps, languageId: number): Promise<Map<string, string>> {
  return catalogCache(deps).get(`strings:${languageId}`, () => repo.stringsOf(deps.db, languageId));
}

/** The flat key -> text map of a language; keys it lacks carry the default language's text. */
export async function localizedStrings(deps: CatalogDeps, langId: string | undefined): Promise<Record<string, string>> {
  const language = await resolveLanguage(deps, langId);
  const fallback = await resolveLanguage(deps, undefined);
  const base = await stringsOf(deps, fallback.id);
  const own = language.id === fallback.id ? base : await stringsOf(deps, language.id);
  return Object.fromEntries([...base, ...own].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A text of one namespace (`billing`, `mail`...) by its key without the namespace, `{placeholders}` filled. */
export type NamespaceText = (key: string, values?: Record<string, string | number>) => string;

/**
 * The texts of one strings namespace (migrations/seeds/strings/<namespace>.json) in `lang` (a code or id;
 * the default language when unknown; keys it lacks fall back to English), for what the server writes
 * itself: receipts and emails.
 */
export async function namespaceTexts(
  deps: CatalogDeps,
  lang: string | undefined,
  namespace: string,
): Promise<NamespaceText> {
  const strings = await localizedStrings(deps, lang);
  return (key, values = {}) => {
    const text = strings[`${namespace}.${key}`] ?? key;
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
  };
}

/** Translates an English server message; undefined when no translation exists. */
export type Translator = (message: string) => string | undefined;

const PLACEHOLDER = /\{(\w+)\}/g;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Builds the translator of one language from the `server.*` strings: plain messages by exact English
 * text, messages with `{placeholders}` by a pattern whose captured values are put into the translation.
 */
function buildTranslator(english: Map<string, string>, target: Map<string, string>): Translator {
  const exact = new Map<string, string>();
  const patterns: Array<{ pattern: RegExp; names: string[]; translation: string }> = [];
  for (const [key, en] of english) {
    const translation = target.get(key);
    if (!key.startsWith('server.') || translation === undefined) continue;
    const names = [...en.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
    if (names.length === 0) exact.set(en, translation);
    else
      patterns.push({
        pattern: new RegExp(`^${escapeRegExp(en).replace(/\\\{(\w+)\\\}/g, '(.+?)')}$`),
        names,
        translation,
      });
  }
  return (message) => {
    const direct = exact.get(message);
    if (direct !== undefined) return direct;
    for (const { pattern, names, translation } of patterns) {
      const match = pattern.exec(message);
      if (match)
        return translation.replace(PLACEHOLDER, (whole, name: string) => match[names.indexOf(name) + 1] ?? whole);
    }
    return undefined;
  };
}

/** The translator for `lang_id`, or null when it is the default language (messages are already English). */
export async function translatorFor(deps: CatalogDeps, langId: string | undefined): Promise<Translator | null> {
  const language = await resolveLanguage(deps, langId);
  if (language.is_default) return null;
  return catalogCache(deps).get(`translator:${language.id}`, async () => {
    const fallback = await resolveLanguage(deps, undefined);
    return buildTranslator(await stringsOf(deps, fallback.id), await stringsOf(deps, language.id));
  });
}

/** Translates one message into `lang_id` when a translation exists, else returns it unchanged. */
export async function translateMessage(
  deps: CatalogDeps,
  message: string,
  langId: string | undefined,
): Promise<string> {
  const translate = await translatorFor(deps, langId);
  return translate?.(message) ?? message;
}

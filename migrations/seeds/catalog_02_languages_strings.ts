/**
 * Languages and translation strings.
 *
 * HOW TO ADD STRINGS (no need to edit this file): drop a JSON file into migrations/seeds/strings/,
 * named after its namespace, e.g. `strings/pricing.json`:
 *
 *   { "en": { "pricing.title": "Pricing", "pricing.choose": "Choose" },
 *     "de": { "pricing.title": "Preise",  "pricing.choose": "Auswählen" } }
 *
 * - Every key starts with the file's namespace and a dot (`pricing.` above), so two files never fight
 *   over a key; the seed fails loudly otherwise.
 * - "en" is the reference language: every key must have an English text. Other languages may leave
 *   keys out; GET /api/localizations then sends the English text for them.
 * - Placeholders are written `{name}` and are kept as they are.
 * - Server messages live in `strings/server.json` with the exact English text the server sends; the API
 *   translates a message into the request's `lang_id` by matching that English text (placeholders match
 *   any value), so a module only has to add its messages there.
 * - The files are the source of truth: a seed run inserts, updates and removes rows to match them
 *   (`npm run seed`, or any start of the app).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import {
  replaceStrings,
  upsertLanguages,
  type LanguageSeed,
} from '../../server/src/modules/catalog/localization.repository';

const LANGUAGES: LanguageSeed[] = [
  { code: 'en', title: 'English', is_default: true, position: 1 },
  { code: 'de', title: 'Deutsch', is_default: false, position: 2 },
];

const STRINGS_DIR = path.join(__dirname, 'strings');

/** Reads every strings/<namespace>.json into language code -> key -> text, checking the rules above. */
export function loadStringFiles(dir = STRINGS_DIR): Map<string, Map<string, string>> {
  const byLanguage = new Map<string, Map<string, string>>();
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  for (const file of files) {
    const namespace = file.replace(/\.json$/, '');
    const content = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    if (!content.en || typeof content.en !== 'object') throw new Error(`strings/${file}: an "en" object is required`);
    for (const [lang, entries] of Object.entries(content)) {
      const target = byLanguage.get(lang) ?? new Map<string, string>();
      byLanguage.set(lang, target);
      for (const [key, text] of Object.entries(entries ?? {})) {
        if (!key.startsWith(`${namespace}.`))
          throw new Error(`strings/${file}: key "${key}" must start with "${namespace}."`);
        if (typeof text !== 'string') throw new Error(`strings/${file}: "${lang}.${key}" must be a string`);
        if (lang !== 'en' && !(key in content.en)) throw new Error(`strings/${file}: "${key}" has no English text`);
        target.set(key, text);
      }
    }
  }
  return byLanguage;
}

export async function seed(knex: Knex): Promise<void> {
  const strings = loadStringFiles();
  const unknown = [...strings.keys()].filter((code) => !LANGUAGES.some((l) => l.code === code));
  if (unknown.length > 0) throw new Error(`strings files use languages that are not seeded: ${unknown.join(', ')}`);
  const ids = await upsertLanguages(knex, LANGUAGES);
  await replaceStrings(
    knex,
    [...strings].flatMap(([code, entries]) =>
      [...entries].map(([key, value]) => ({ language_id: ids.get(code) as number, key, value })),
    ),
  );
}

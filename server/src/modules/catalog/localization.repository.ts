import type { Knex } from 'knex';

export interface LanguageRow {
  id: number;
  code: string;
  title: string;
  is_default: boolean;
  position: number;
}

export type LanguageSeed = Omit<LanguageRow, 'id'>;

/** Languages in display order. */
export async function listLanguages(db: Knex): Promise<LanguageRow[]> {
  return db('languages')
    .select('id', 'code', 'title', 'is_default', 'position')
    .orderBy([{ column: 'position' }, { column: 'id' }]);
}

/** Every string of one language as key -> text. */
export async function stringsOf(db: Knex, languageId: number): Promise<Map<string, string>> {
  const rows: Array<{ key: string; value: string }> = await db('localization_strings')
    .where({ language_id: languageId })
    .select('key', 'value');
  return new Map(rows.map((r) => [r.key, r.value]));
}

/**
 * Inserts missing languages (an existing one keeps its title and position). The default flag is only
 * set when no language is default yet, so an operator's choice survives seeding. Returns code -> id.
 */
export async function upsertLanguages(db: Knex, languages: LanguageSeed[]): Promise<Map<string, number>> {
  await db.transaction(async (trx) => {
    await trx('languages')
      .insert(languages.map((l) => ({ ...l, is_default: false })))
      .onConflict('code')
      .ignore();
    const hasDefault = await trx('languages').where({ is_default: true }).first('id');
    const wanted = languages.find((l) => l.is_default);
    if (!hasDefault && wanted) await trx('languages').where({ code: wanted.code }).update({ is_default: true });
  });
  const rows: Array<{ id: number; code: string }> = await db('languages').select('id', 'code');
  return new Map(rows.map((r) => [r.code, r.id]));
}

/** Makes localization_strings equal to `rows` (insert, update changed texts, delete the rest) in one transaction. */
export async function replaceStrings(
  db: Knex,
  rows: Array<{ language_id: number; key: string; value: string }>,
): Promise<void> {
  await db.transaction(async (trx) => {
    for (let i = 0; i < rows.length; i += 500) {
      await trx('localization_strings')
        .insert(rows.slice(i, i + 500))
        .onConflict(['language_id', 'key'])
        .merge(['value'])
        .whereRaw('localization_strings.value is distinct from excluded.value');
    }
    const wanted = new Set(rows.map((r) => `${r.language_id}\u0000${r.key}`));
    const existing: Array<{ language_id: number; key: string }> = await trx('localization_strings').select(
      'language_id',
      'key',
    );
    const stale = existing.filter((r) => !wanted.has(`${r.language_id}\u0000${r.key}`));
    for (const r of stale) await trx('localization_strings').where(r).delete();
  });
}

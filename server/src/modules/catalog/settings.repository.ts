import type { Knex } from 'knex';

/** Every stored setting as key -> raw JSON value. */
export async function readSettingRows(db: Knex): Promise<Map<string, unknown>> {
  const rows: Array<{ key: string; value: unknown }> = await db('settings').select('key', 'value');
  return new Map(rows.map((r) => [r.key, r.value]));
}

/** Writes one setting (insert or replace). */
export async function writeSetting(db: Knex, key: string, value: unknown): Promise<void> {
  await db('settings')
    .insert({ key, value: JSON.stringify(value), updated_at: db.fn.now() })
    .onConflict('key')
    .merge(['value', 'updated_at']);
}

/** Inserts the settings that have no row yet; existing values (operator changes) are kept. */
export async function insertMissingSettings(db: Knex, values: Record<string, unknown>): Promise<void> {
  const rows = Object.entries(values).map(([key, value]) => ({ key, value: JSON.stringify(value) }));
  if (rows.length > 0) await db('settings').insert(rows).onConflict('key').ignore();
}

import type { Knex } from 'knex';

export interface PackRow {
  id: number;
  title: string;
  description: string;
  price_cents: number;
  credits_tenths: number;
  position: number;
  hidden: boolean;
}

const PACK_COLUMNS = ['id', 'title', 'description', 'price_cents', 'credits_tenths', 'position', 'hidden'];

/** Every pack (hidden ones too) in display order. */
export async function listPacks(db: Knex): Promise<PackRow[]> {
  return db('packs')
    .select(PACK_COLUMNS)
    .orderBy([{ column: 'position' }, { column: 'id' }]);
}

export async function insertPack(db: Knex, row: Omit<PackRow, 'id'>): Promise<PackRow> {
  const [saved] = await db('packs').insert(row).returning(PACK_COLUMNS);
  return saved as PackRow;
}

export async function updatePack(db: Knex, id: number, changes: Partial<Omit<PackRow, 'id'>>): Promise<PackRow | null> {
  const [saved] = await db('packs')
    .where({ id })
    .update({ ...changes, updated_at: db.fn.now() })
    .returning(PACK_COLUMNS);
  return (saved as PackRow | undefined) ?? null;
}

/** Seeds packs only while the table is empty, so an operator's edits and deletions stay. */
export async function seedPacks(db: Knex, rows: Array<Omit<PackRow, 'id'>>): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.raw('lock table packs in exclusive mode');
    if (!(await trx('packs').first('id'))) await trx('packs').insert(rows);
  });
}

export interface TierRow {
  min_tenths: number;
  max_tenths: number | null;
  /** EUR per token, exact decimal text. */
  price_eur: string;
}

export async function listTiers(db: Knex): Promise<TierRow[]> {
  return db('token_price_tiers').select('min_tenths', 'max_tenths', 'price_eur').orderBy('min_tenths');
}

/** Replaces the whole tier table in one transaction (readers see the old or the new table, never a mix). */
export async function replaceTiers(db: Knex, rows: TierRow[]): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('token_price_tiers').delete();
    await trx('token_price_tiers').insert(rows);
  });
}

/** Seeds the tiers only while the table is empty. */
export async function seedTiers(db: Knex, rows: TierRow[]): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.raw('lock table token_price_tiers in exclusive mode');
    if (!(await trx('token_price_tiers').first('id'))) await trx('token_price_tiers').insert(rows);
  });
}

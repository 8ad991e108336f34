import type { Knex } from 'knex';

/** The catalog version counter bumped by every write to a catalog table (as text: it is a bigint). */
export async function readCatalogVersion(db: Knex): Promise<string> {
  const row = await db('catalog_version').where({ id: 1 }).first('version');
  return String(row?.version ?? '0');
}

export interface CurrencyRow {
  code: string;
  /** Units of this currency per 1 EUR, exact decimal text (numeric). */
  value: string;
  symbol: string;
  is_default: boolean;
  position: number;
  hidden: boolean;
}

/** Every currency, hidden ones included, in display order. */
export async function listCurrencies(db: Knex): Promise<CurrencyRow[]> {
  return db('currencies')
    .select('code', 'value', 'symbol', 'is_default', 'position', 'hidden')
    .orderBy([{ column: 'position' }, { column: 'code' }]);
}

/** Inserts currencies that do not exist yet (rates an operator set are kept). */
export async function insertMissingCurrencies(db: Knex, rows: Array<Omit<CurrencyRow, 'hidden'>>): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('currencies')
      .insert(rows.map((r) => ({ ...r, is_default: false })))
      .onConflict('code')
      .ignore();
    const wanted = rows.find((r) => r.is_default);
    const hasDefault = await trx('currencies').where({ is_default: true }).first('code');
    if (!hasDefault && wanted) await trx('currencies').where({ code: wanted.code }).update({ is_default: true });
  });
}

/** Adds or changes one currency's rate and symbol. */
export async function upsertCurrency(
  db: Knex,
  row: { code: string; value: string; symbol?: string; position?: number },
): Promise<void> {
  const { symbol, position, ...rest } = row;
  const insert = { ...rest, symbol: symbol ?? row.code, position: position ?? 100 };
  const merge = ['value', ...(symbol !== undefined ? ['symbol'] : []), ...(position !== undefined ? ['position'] : [])];
  await db('currencies').insert(insert).onConflict('code').merge(merge);
}

/** Makes `code` the only default currency (two statements: the one-default index is checked per row). */
export async function setDefaultCurrency(db: Knex, code: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    const exists = await trx('currencies').where({ code }).first('code');
    if (!exists) return false;
    await trx('currencies').where({ is_default: true }).update({ is_default: false });
    await trx('currencies').where({ code }).update({ is_default: true, hidden: false });
    return true;
  });
}

export async function setCurrencyHidden(db: Knex, code: string, hidden: boolean): Promise<number> {
  return db('currencies').where({ code, is_default: false }).update({ hidden });
}

export interface CountryRow {
  id: number;
  iso: string;
  title: string;
}

export async function listCountries(db: Knex): Promise<CountryRow[]> {
  return db('countries').select('id', 'iso', 'title').orderBy('title');
}

/** Inserts or refreshes countries by id (the ISO numeric code). */
export async function upsertCountries(db: Knex, rows: CountryRow[]): Promise<void> {
  await db('countries')
    .insert(rows)
    .onConflict('id')
    .merge(['iso', 'title'])
    .whereRaw('(countries.iso, countries.title) is distinct from (excluded.iso, excluded.title)');
}

export interface StaticPageRow {
  id: number;
  slug: string | null;
  title: string;
  content: string;
  is_terms: boolean;
  is_privacy: boolean;
  position: number;
}

const PAGE_COLUMNS = ['id', 'slug', 'title', 'content', 'is_terms', 'is_privacy', 'position'];

export async function listStaticPages(db: Knex): Promise<StaticPageRow[]> {
  return db('static_pages')
    .select(PAGE_COLUMNS)
    .orderBy([{ column: 'position' }, { column: 'id' }]);
}

/** A page's title and content in one language (`static_page_translations`). */
export interface StaticPageTranslationRow {
  page_id: number;
  title: string;
  content: string;
}

/** Every page's text in the language `code`; pages without one are absent. */
export async function listStaticPageTranslations(db: Knex, code: string): Promise<StaticPageTranslationRow[]> {
  return db('static_page_translations').select(['page_id', 'title', 'content']).where({ language_code: code });
}

/**
 * Inserts the translations of pages given by slug that have none in that language yet; a translation an
 * operator edited is kept, and a slug without a page is skipped.
 */
export async function insertMissingPageTranslations(
  db: Knex,
  rows: Array<{ slug: string; language_code: string; title: string; content: string }>,
): Promise<void> {
  for (const { slug, ...text } of rows) {
    const page = (await db('static_pages').first('id').where({ slug })) as { id: number } | undefined;
    if (!page) continue;
    await db('static_page_translations')
      .insert({ page_id: page.id, ...text })
      .onConflict(['page_id', 'language_code'])
      .ignore();
  }
}

/** Inserts pages whose slug is new; pages an operator edited are kept. */
export async function insertMissingPages(db: Knex, rows: Array<Omit<StaticPageRow, 'id'>>): Promise<void> {
  await db('static_pages').insert(rows).onConflict('slug').ignore();
}

/** Updates a page by slug (or creates it); returns its id. */
export async function savePage(db: Knex, row: Omit<StaticPageRow, 'id'>): Promise<number> {
  const [saved] = await db('static_pages')
    .insert({ ...row, updated_at: db.fn.now() })
    .onConflict('slug')
    .merge(['title', 'content', 'is_terms', 'is_privacy', 'position', 'updated_at'])
    .returning('id');
  return Number((saved as { id: number }).id);
}

export interface SocialLinkRow {
  id: number;
  title: string;
  url: string;
  icon: string;
  position: number;
}

export async function listSocialLinks(db: Knex): Promise<SocialLinkRow[]> {
  return db('social_links')
    .select('id', 'title', 'url', 'icon', 'position')
    .orderBy([{ column: 'position' }, { column: 'id' }]);
}

/** Seeds the links only while the table is empty (operators may edit them freely afterwards). */
export async function seedSocialLinks(db: Knex, rows: Array<Omit<SocialLinkRow, 'id'>>): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.raw('lock table social_links in exclusive mode');
    const any = await trx('social_links').first('id');
    if (!any) await trx('social_links').insert(rows);
  });
}

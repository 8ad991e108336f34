import knex, { type Knex } from 'knex';
import { redactUrl } from '@imagestudio/runtime';

export type Db = Knex;

const CONNECT_TIMEOUT_MS = 5000;

/** Creates the knex pool and checks Postgres answers within 5 s, with a clear error otherwise. */
export async function connectDb(url: string, pool = { min: 0, max: 10 }): Promise<Db> {
  const db = knex({
    client: 'pg',
    connection: { connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS },
    pool,
    acquireConnectionTimeout: CONNECT_TIMEOUT_MS,
  });
  try {
    await db.raw('select 1');
  } catch (err) {
    await db.destroy();
    throw new Error(`Postgres at ${redactUrl(url)} is not reachable: ${(err as Error).message}`, { cause: err });
  }
  return db;
}

/** Creates the database named in `url` when it does not exist (connecting to the `postgres` database). */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`Refusing to create database with name "${name}"`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const db = await connectDb(admin.toString(), { min: 0, max: 1 });
  try {
    const found = await db.raw('select 1 from pg_database where datname = ?', [name]);
    if (found.rows.length === 0) {
      try {
        await db.raw(`create database "${name}"`);
      } catch (err) {
        // Two processes (parallel test runs) may race to create it; the loser sees "already exists".
        if ((err as { code?: string }).code !== '42P04' && (err as { code?: string }).code !== '23505') throw err;
      }
    }
  } finally {
    await db.destroy();
  }
}

/**
 * One page of `query`'s rows, newest first (created_at, then id, so rows created in the same instant keep one
 * order across pages), and the total count of the query, read side by side.
 */
export async function newestFirstPage<Row>(
  query: Knex.QueryBuilder,
  page: number,
  perPage: number,
): Promise<{ rows: Row[]; total: number }> {
  const [rows, count] = await Promise.all([
    query
      .clone()
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(perPage)
      .offset((page - 1) * perPage) as Promise<Row[]>,
    query.clone().count<{ count: string }[]>('* as count').first(),
  ]);
  return { rows, total: Number(count?.count ?? 0) };
}

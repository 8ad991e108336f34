import path from 'node:path';
import type { Knex } from 'knex';

/** Repository root from server/src/lib. */
const ROOT = path.resolve(__dirname, '..', '..', '..');

/**
 * knex migration and seed settings: TypeScript files under migrations/ (one concern per file) and
 * migrations/seeds/ (idempotent upserts). Run through tsx, so .ts files load without a build.
 */
export const migrationConfig: Knex.MigratorConfig = {
  directory: path.join(ROOT, 'migrations'),
  extension: 'ts',
  loadExtensions: ['.ts'],
  tableName: 'knex_migrations',
};

export const seedConfig: Knex.SeederConfig = {
  directory: path.join(ROOT, 'migrations', 'seeds'),
  extension: 'ts',
  loadExtensions: ['.ts'],
  sortDirsSeparately: true,
};

/** Applies every pending migration; returns the names applied. */
export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest(migrationConfig)) as [number, string[]];
  return applied;
}

/** Runs every seed file in name order; seeds are idempotent, so this is safe on every start. */
export async function runSeeds(db: Knex): Promise<string[]> {
  const [files] = (await db.seed.run(seedConfig)) as [string[]];
  return files;
}

export async function rollbackLast(db: Knex): Promise<string[]> {
  const [, rolledBack] = (await db.migrate.rollback(migrationConfig)) as [number, string[]];
  return rolledBack;
}

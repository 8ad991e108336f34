import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { projectRoot } from '@imagestudio/runtime';
import { connectDb, ensureDatabase } from './db';

/**
 * knex migration and seed settings: files under migrations/ (one concern per file) and migrations/seeds/
 * (idempotent upserts). From source (tsx, jest) the TypeScript files load directly. The production build
 * (`npm run build:server`) compiles them to dist/migrations/*.js; their names in `knex_migrations` must stay
 * the `.ts` names already recorded, so the compiled files are listed through a source that reports those.
 */

/** True when this module runs from the compiled bundle rather than from its TypeScript source. */
const COMPILED = __filename.endsWith('.js');
const SOURCE_DIR = path.join(projectRoot(), 'migrations');
const COMPILED_DIR = path.join(projectRoot(), 'dist', 'migrations');

/** The compiled migrations, named as their sources are. */
const compiledMigrations: Knex.MigrationSource<string> = {
  getMigrations: async () =>
    fs
      .readdirSync(COMPILED_DIR)
      .filter((f) => f.endsWith('.js'))
      .sort(),
  getMigrationName: (file) => file.replace(/\.js$/, '.ts'),
  // The compiled files are CommonJS, loaded as knex's own directory loader loads them.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  getMigration: async (file) => require(path.join(COMPILED_DIR, file)) as Knex.Migration,
};

export const migrationConfig: Knex.MigratorConfig = COMPILED
  ? { migrationSource: compiledMigrations, tableName: 'knex_migrations' }
  : { directory: SOURCE_DIR, extension: 'ts', loadExtensions: ['.ts'], tableName: 'knex_migrations' };

export const seedConfig: Knex.SeederConfig = {
  directory: path.join(COMPILED ? COMPILED_DIR : SOURCE_DIR, 'seeds'),
  extension: COMPILED ? 'js' : 'ts',
  loadExtensions: [COMPILED ? '.js' : '.ts'],
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

/** Creates the database at `url` when missing, migrates it and seeds it (the test, browser-test and bench setups). */
export async function prepareDatabase(url: string): Promise<void> {
  await ensureDatabase(url);
  const db = await connectDb(url, { min: 0, max: 2 });
  try {
    await migrateLatest(db);
    await runSeeds(db);
  } finally {
    await db.destroy();
  }
}

export async function rollbackLast(db: Knex): Promise<string[]> {
  const [, rolledBack] = (await db.migrate.rollback(migrationConfig)) as [number, string[]];
  return rolledBack;
}

import { connectDb, ensureDatabase } from '../lib/db';
import { migrateLatest, runSeeds } from '../lib/migrator';
import { TEST_DATABASE_URL } from '@imagestudio/runtime/testing';

/** Once per jest run: create the test database if missing, migrate it and seed it. */
export default async function globalSetup(): Promise<void> {
  await ensureDatabase(TEST_DATABASE_URL);
  const db = await connectDb(TEST_DATABASE_URL, { min: 0, max: 2 });
  try {
    await migrateLatest(db);
    await runSeeds(db);
  } finally {
    await db.destroy();
  }
}

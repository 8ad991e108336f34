/**
 * `npm run migrate` / `migrate:rollback` / `seed`: creates the database when missing, then applies
 * migrations, rolls back the last batch, or runs the idempotent seeds.
 */
import { loadConfig } from '../server/src/config';
import { connectDb, ensureDatabase } from '../server/src/lib/db';
import { migrateLatest, rollbackLast, runSeeds } from '../server/src/lib/migrator';

async function main(): Promise<void> {
  const command = process.argv[2];
  if (!['latest', 'rollback', 'seed'].includes(command ?? '')) {
    console.error('usage: tsx scripts/migrate.ts latest|rollback|seed');
    process.exit(2);
  }
  const config = loadConfig();
  await ensureDatabase(config.DATABASE_URL);
  const db = await connectDb(config.DATABASE_URL, { min: 0, max: 2 });
  try {
    if (command === 'latest') {
      const applied = await migrateLatest(db);
      console.log(
        applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'database is up to date',
      );
    } else if (command === 'rollback') {
      const undone = await rollbackLast(db);
      console.log(undone.length ? `rolled back: ${undone.join(', ')}` : 'nothing to roll back');
    } else {
      const files = await runSeeds(db);
      console.log(`ran ${files.length} seed file(s)`);
    }
  } finally {
    await db.destroy();
  }
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});

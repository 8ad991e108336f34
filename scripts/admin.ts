/**
 * `npm run admin -- <command>`: the operator's tools (settings, packs, price tiers, currencies, static
 * pages, users and token adjustments). Run without arguments for the list of commands.
 */
import os from 'node:os';
import { loadConfig } from '../server/src/config';
import { connectDb } from '../server/src/lib/db';
import { createLogger } from '@imagestudio/runtime';
import { runAdminCommand } from '../server/src/modules/admin-cli/admin-cli';

async function main(): Promise<number> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'admin');
  const db = await connectDb(config.DATABASE_URL, { min: 0, max: 2 });
  try {
    return await runAdminCommand(process.argv.slice(2), {
      db,
      config,
      logger,
      operator: os.userInfo().username,
      print: (line) => console.log(line),
    });
  } finally {
    await db.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(err.message);
    process.exit(1);
  },
);

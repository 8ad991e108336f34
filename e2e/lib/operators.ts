import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { E2E_DATABASE_URL } from '@imagestudio/runtime/testing';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Makes an account an operator the only way there is: `npm run admin -- users promote EMAIL` (the CLI, run
 * against the run's database). The account must exist; its browser picks the role up with its next profile read.
 */
export async function promoteWithCli(email: string): Promise<void> {
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', 'users', 'promote', email], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL, LOG_LEVEL: 'warn' },
    timeout: 60_000,
  });
}

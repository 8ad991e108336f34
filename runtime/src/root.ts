import fs from 'node:fs';
import path from 'node:path';

let cached: string | undefined;

/**
 * The repository (or image) root: the nearest folder above this file whose package.json declares the npm
 * workspaces. Found by walking up rather than by a fixed number of `..`, because the same module runs from its
 * source folder (tsx, jest) and from inside a compiled bundle in `dist/`, at different depths.
 */
export function projectRoot(): string {
  if (cached) return cached;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && 'workspaces' in (JSON.parse(fs.readFileSync(manifest, 'utf8')) as object))
      return (cached = dir);
    if (path.dirname(dir) === dir) throw new Error(`no package.json with "workspaces" above ${__dirname}`);
  }
}

/** Resolves a configured path against the project root (absolute paths stay as they are). */
export function fromProjectRoot(p: string): string {
  return path.isAbsolute(p) ? p : path.join(projectRoot(), p);
}

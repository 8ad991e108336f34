import fs from 'node:fs';
import path from 'node:path';

/**
 * The server modules form layers: lint's no-cycle follows run-time imports only, so this walks every import,
 * type imports included, and fails on a cycle between modules (docs/architecture.md, Server modules).
 * Tests and test-support files are left out: they may reach into other modules to arrange a case.
 */
const MODULES_DIR = __dirname;
const MODULES = fs
  .readdirSync(MODULES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Every specifier a file imports or re-exports, `import type` and `import('...')` included. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const [, spec] of source.matchAll(/^\s*(?:import|export)\b[^'";]*?\bfrom\s+'([^']+)'/gm)) found.push(spec!);
  for (const [, spec] of source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) found.push(spec!);
  return found;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$|test-support\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** Module -> the modules its files import, with one importing file per edge for the failure message. */
function moduleGraph(): Map<string, Map<string, string>> {
  const graph = new Map(MODULES.map((name) => [name, new Map<string, string>()]));
  for (const name of MODULES) {
    for (const file of sourceFiles(path.join(MODULES_DIR, name))) {
      for (const spec of specifiers(fs.readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const relative = path.relative(MODULES_DIR, path.resolve(path.dirname(file), spec));
        const target = relative.split(path.sep)[0]!;
        if (relative.startsWith('..') || target === name || !graph.has(target)) continue;
        graph.get(name)!.set(target, path.relative(MODULES_DIR, file));
      }
    }
  }
  return graph;
}

/** The first cycle found, as "a (a/file.ts) -> b (b/file.ts) -> a", or null. */
function findCycle(graph: Map<string, Map<string, string>>): string | null {
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (name: string): string | null => {
    const at = stack.indexOf(name);
    if (at >= 0) {
      const loop = [...stack.slice(at), name];
      return loop.map((m, i) => (i < loop.length - 1 ? `${m} (${graph.get(m)!.get(loop[i + 1]!)})` : m)).join(' -> ');
    }
    if (done.has(name)) return null;
    stack.push(name);
    for (const next of graph.get(name)!.keys()) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    done.add(name);
    return null;
  };
  for (const name of MODULES) {
    const cycle = visit(name);
    if (cycle) return cycle;
  }
  return null;
}

describe('server module layers', () => {
  it('reads the imports of the modules (the walk sees what it should)', () => {
    const graph = moduleGraph();
    // Known edges, a run-time and a type-only one: if these vanish the walk is broken, not the code clean.
    expect(graph.get('auth')!.has('users')).toBe(true);
    expect(graph.get('payments')!.has('users')).toBe(true); // `import type { CurrentUser }` only
  });

  it('has no cycle between modules, type imports included', () => {
    expect(findCycle(moduleGraph())).toBeNull();
  });
});

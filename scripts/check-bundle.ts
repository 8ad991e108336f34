/**
 * `npm run check:bundle`: the JavaScript each route makes a first-time visitor download, brotli-compressed,
 * against the budgets in client/bundle-budget.json. A route's JavaScript is the entry chunk with everything it
 * imports statically (index.html preloads all of it) plus the chunks of the lazy pages that route shows and
 * their static imports, all read from Vite's build manifest (client/dist/.vite/manifest.json). Builds the client
 * first when client/dist is missing or older than its sources (`--dist <dir>` reads another build instead).
 * Prints one table and exits 1 when a route is over its budget or a page the budget names is not in the build.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { buildClientIfNeeded } from './lib/client-build';

const ROOT = path.resolve(__dirname, '..');
const BUDGET_FILE = path.join(ROOT, 'client', 'bundle-budget.json');

/** One route of the budget file: its ceiling, and the manifest keys of the lazy pages it shows. */
interface RouteBudget {
  maxKB: number;
  pages: string[];
}

interface BudgetFile {
  routes: Record<string, RouteBudget>;
}

/** The parts of a Vite manifest entry this check reads. */
interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

type Manifest = Record<string, ManifestChunk>;

/** KB as `npm run bench -- client` counts them (1024 bytes), one decimal. */
const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;

/** The `--dist <dir>` argument, or client/dist (built first when stale). */
function distDir(): string {
  const given = process.argv[process.argv.indexOf('--dist') + 1];
  if (process.argv.includes('--dist') && given) return path.resolve(given);
  buildClientIfNeeded();
  return path.join(ROOT, 'client', 'dist');
}

/** The manifest keys `from` pulls in through static imports, itself included. */
function staticClosure(manifest: Manifest, from: string, into = new Set<string>()): Set<string> {
  if (into.has(from)) return into;
  into.add(from);
  for (const imported of manifest[from]?.imports ?? []) staticClosure(manifest, imported, into);
  return into;
}

/** Brotli size at quality 11 (what the build writes as .br and the API sends), cached per file. */
function brotliSizer(dist: string): (file: string) => number {
  const sizes = new Map<string, number>();
  return (file) => {
    let size = sizes.get(file);
    if (size === undefined) {
      const bytes = fs.readFileSync(path.join(dist, file));
      size = zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
      sizes.set(file, size);
    }
    return size;
  };
}

interface RouteResult {
  route: string;
  bytes: number;
  maxKB: number;
  files: { file: string; bytes: number }[];
  missing: string[];
}

/** What `route` downloads on a first visit, file by file. */
function measureRoute(manifest: Manifest, route: string, budget: RouteBudget, size: (file: string) => number) {
  const keys = staticClosure(manifest, 'index.html');
  const missing = budget.pages.filter((page) => !manifest[page]);
  for (const page of budget.pages) if (manifest[page]) staticClosure(manifest, page, keys);
  const files = [...keys]
    .map((key) => manifest[key]?.file ?? '')
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({ file, bytes: size(file) }))
    .sort((a, b) => b.bytes - a.bytes);
  const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
  return { route, bytes, maxKB: budget.maxKB, files, missing } satisfies RouteResult;
}

function printTable(results: RouteResult[]): void {
  const rows = results.map((r) => ({
    route: r.route,
    'JS KB br': kb(r.bytes),
    'budget KB': r.maxKB,
    files: r.files.length,
    result: r.missing.length ? 'page missing' : kb(r.bytes) > r.maxKB ? 'OVER' : 'ok',
  }));
  console.table(rows);
}

function main(): void {
  const budget = JSON.parse(fs.readFileSync(BUDGET_FILE, 'utf8')) as BudgetFile;
  const dist = distDir();
  const manifestFile = path.join(dist, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile))
    throw new Error(`${manifestFile} is missing: build.manifest is off in vite.config.mts`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  const size = brotliSizer(dist);
  const results = Object.entries(budget.routes).map(([route, b]) => measureRoute(manifest, route, b, size));
  printTable(results);
  let failed = false;
  for (const r of results) {
    for (const page of r.missing) {
      failed = true;
      console.error(`${r.route}: ${page} is not in the build manifest; name the page's module as the manifest does`);
    }
    if (kb(r.bytes) <= r.maxKB) continue;
    failed = true;
    console.error(`${r.route} loads ${kb(r.bytes)} KB of JavaScript after brotli, over its ${r.maxKB} KB budget:`);
    for (const f of r.files.slice(0, 8)) console.error(`  ${String(kb(f.bytes)).padStart(6)} KB  ${f.file}`);
  }
  if (failed) {
    console.error(`Budgets: ${path.relative(ROOT, BUDGET_FILE)}. Find what grew with a build's source maps.`);
    process.exit(1);
  }
  console.log(`Every route within its budget (${path.relative(ROOT, BUDGET_FILE)}).`);
}

main();

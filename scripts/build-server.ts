/**
 * `npm run build:server`: compiles the API, the worker, the migration command and the admin CLI to plain
 * JavaScript in dist/, for production images that run `node` rather than tsx. Each entry is bundled with the
 * workspace packages (contracts, runtime, server code) inlined and every npm dependency left to node_modules,
 * so native modules (sharp, argon2, onnxruntime-node) load as usual. Migrations and seeds are compiled one file
 * each into dist/migrations/, beside copies of the data files the seeds read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build, type BuildOptions, type Plugin } from 'esbuild';

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'dist');

/** Bundles our own code; leaves every package from node_modules (anything not @imagestudio/*) to require(). */
const externalPackages: Plugin = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@imagestudio/') ? undefined : { path: args.path, external: true },
    );
  },
};

const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node24',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalPackages],
};

const ENTRIES: Record<string, string> = {
  server: 'server/src/main.ts',
  worker: 'worker/src/main.ts',
  migrate: 'scripts/migrate.ts',
  admin: 'scripts/admin.ts',
};

function filesIn(dir: string, ext: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir))
    .filter((f) => f.endsWith(ext))
    .map((f) => path.join(ROOT, dir, f));
}

async function main(): Promise<void> {
  const started = Date.now();
  fs.rmSync(OUT, { recursive: true, force: true });
  await Promise.all(
    Object.entries(ENTRIES).map(([name, entry]) =>
      build({ ...common, entryPoints: [path.join(ROOT, entry)], outfile: path.join(OUT, `${name}.js`) }),
    ),
  );
  await build({
    ...common,
    sourcemap: false,
    entryPoints: filesIn('migrations', '.ts'),
    outdir: path.join(OUT, 'migrations'),
  });
  await build({
    ...common,
    sourcemap: false,
    entryPoints: filesIn('migrations/seeds', '.ts'),
    outdir: path.join(OUT, 'migrations', 'seeds'),
  });
  for (const data of ['strings', 'pages']) {
    fs.cpSync(path.join(ROOT, 'migrations', 'seeds', data), path.join(OUT, 'migrations', 'seeds', data), {
      recursive: true,
    });
  }
  console.log(
    `build:server: ${Object.keys(ENTRIES)
      .map((n) => `dist/${n}.js`)
      .join(', ')} and dist/migrations/ in ${Date.now() - started} ms`,
  );
}

main().catch((err: Error) => {
  console.error(`build:server failed: ${err.message}`);
  process.exit(1);
});

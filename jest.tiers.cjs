// Sorts the test files of the repository into two tiers by what each one uses, read from its source:
//   integration: Postgres, Redis or S3 (the server test harness, knex, pg, redis, BullMQ, the AWS SDK, an S3
//     server, a private redis-server, the test database's address), a spawned process, or the prepared models;
//   unit: everything else, run by `npm run test:unit` with the services out of reach (jest.unit.cjs).
// A test file may also state its tier on a line of its own: `// test-tier: integration` (or `unit`).
// Relative imports into test helpers (test-support, src/test, testing folders) count as the file's own.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = __dirname;

/** Import specifiers (module names, or path endings of relative imports) that make a test an integration test. */
const INTEGRATION_IMPORTS = [
  /^knex$/,
  /^pg$/,
  /^redis$/,
  /^bullmq$/,
  /^s3rver$/,
  /^@aws-sdk\/client-s3$/,
  /^(node:)?child_process$/,
  /(^|\/)test\/harness$/,
  /(^|\/)test\/test-worker$/,
  /(^|\/)test\/processes$/,
  /(^|\/)test-support\/local-s3$/,
  /(^|\/)test-support\/queue-client$/,
  /(^|\/)test-support\/models$/,
  /(^|\/)lib\/db$/,
  /(^|\/)bootstrap$/,
];

/** Names whose use means a real service or the prepared models (from @imagestudio/runtime/testing and others). */
const INTEGRATION_NAMES =
  /\b(startPrivateRedis|TEST_DATABASE_URL|TEST_REDIS_URL|TEST_QUEUE_REDIS_DB|E2E_DATABASE_URL|openDeps|connectRedis|MODELS_DIR|requirePrepared|requireTarball)\b|'(\.cache)'/;

const DECLARED = /^\s*\/\/\s*test-tier:\s*(unit|integration)\s*$/m;
const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
/** `import type ... from '...'`: erased when compiled, so it uses nothing at run time. */
const TYPE_IMPORTS = /^\s*import\s+type\s[^;]*?from\s*['"][^'"]+['"]/gm;
const HELPER_PATH = /(test-support|\/test\/|\/testing\/|\.test-support\.)/;

function resolveRelative(fromFile, spec) {
  const base = path.resolve(path.dirname(fromFile), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Why `file` (or a test helper it imports) needs a service, or undefined when it needs none. */
function integrationReason(file, seen = new Set()) {
  if (seen.has(file)) return undefined;
  seen.add(file);
  const source = fs.readFileSync(file, 'utf8').replace(TYPE_IMPORTS, '');
  const name = source.match(INTEGRATION_NAMES);
  if (name) return `${path.relative(ROOT, file)} uses ${name[1] ?? 'models/.cache'}`;
  for (const [, spec] of source.matchAll(SPECIFIERS)) {
    if (INTEGRATION_IMPORTS.some((re) => re.test(spec))) return `${path.relative(ROOT, file)} imports ${spec}`;
    if (!spec.startsWith('.')) continue;
    const target = resolveRelative(file, spec);
    if (target && HELPER_PATH.test(target.split(path.sep).join('/'))) {
      const reason = integrationReason(target, seen);
      if (reason) return reason;
    }
  }
  return undefined;
}

/** The tier of one test file and the reason for it. */
function testTier(file) {
  const declared = fs.readFileSync(file, 'utf8').match(DECLARED);
  if (declared) return { tier: declared[1], reason: 'declared in the file' };
  const reason = integrationReason(file);
  return reason ? { tier: 'integration', reason } : { tier: 'unit', reason: 'no service, process or model' };
}

function listTests(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) listTests(full, out);
    else if (/\.test\.tsx?$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** Every test file under `dir` (absolute paths) with its tier. */
function classify(dir) {
  return listTests(dir).map((file) => ({ file, ...testTier(file) }));
}

module.exports = { classify, testTier };

// `node jest.tiers.cjs [folder]`: prints the tier of every test file, integration ones with their reason.
if (require.main === module) {
  const rows = classify(path.resolve(process.argv[2] ?? ROOT));
  for (const row of rows) {
    const reason = row.tier === 'integration' ? `  (${row.reason})` : '';
    console.log(`${row.tier.padEnd(11)} ${path.relative(ROOT, row.file)}${reason}`);
  }
  const units = rows.filter((r) => r.tier === 'unit').length;
  console.log(`\n${units} unit, ${rows.length - units} integration`);
}

// Lint for every workspace: typescript-eslint's recommended rules, plus the project's architecture rules
// (import boundaries, no cycles, queries and process.env each in one kind of file, no zod in what the browser loads); generated and vendored files ignored.
import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const TS_PROJECTS = ['contracts', 'runtime', 'server', 'worker', 'client', 'models']
  .map((p) => `${p}/tsconfig.json`)
  .concat('tsconfig.tools.json');

/** Client features talk to each other only through a feature's index.ts, never through its internals. */
const FEATURES = fs
  .readdirSync('client/src/features', { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const featureZones = FEATURES.map((feature) => ({
  target: `./client/src/features/${feature}`,
  from: './client/src/features',
  except: [`./${feature}`, ...FEATURES.filter((other) => other !== feature).map((other) => `./${other}/index.ts`)],
  message: 'Import another feature through its index.ts, not its internals.',
}));

/**
 * Server modules likewise: another module is reached only through its index.ts (its public face). Tests and
 * test-support files may also use another module's test-support files and, to arrange a case, its internals.
 */
const SERVER_MODULES = fs
  .readdirSync('server/src/modules', { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const serverModuleZones = SERVER_MODULES.map((name) => ({
  target: `./server/src/modules/${name}`,
  from: './server/src/modules',
  except: [`./${name}`, ...SERVER_MODULES.filter((other) => other !== name).map((other) => `./${other}/index.ts`)],
  message: 'Import another server module through its index.ts, not its internals.',
}));
const SERVER_TEST_FILES = ['server/src/**/*.test.ts', 'server/src/**/*test-support.ts', 'server/src/test/**'];

const sharedZones = [
  ...featureZones,
  // The client's layers point one way: shared code (components, lib) -> features and their stores -> app.
  {
    target: ['./client/src/components', './client/src/lib'],
    from: ['./client/src/stores', './client/src/features', './client/src/app'],
    message: 'Shared components and lib sit below the stores and features: pass what they need in.',
  },
  {
    target: ['./client/src/features', './client/src/stores'],
    from: './client/src/app',
    message: 'The app wires the features together; features and stores do not import it.',
  },
  {
    target: './server/src/http',
    from: './server/src/modules',
    message: 'http/ is plumbing: modules plug into it, not the other way.',
  },
  {
    target: ['./worker', './runtime', './contracts'],
    from: './server',
    message: 'The worker and the shared packages never import the API.',
  },
  {
    target: './contracts',
    from: ['./runtime', './worker', './client'],
    message: 'contracts imports nothing of ours.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.tsbuild/**',
      'models/.cache/**',
      'data/**',
      'bench/results/**',
      'bench/peers/**',
      'e2e/artifacts/**',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['client/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Import boundaries and cycles. no-cycle follows run-time imports only; between server modules type imports
    // keep the same layers too (docs/architecture.md, Server modules).
    files: ['{contracts,runtime,server,worker,client,models}/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: TS_PROJECTS, noWarnOnMultipleProjects: true }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: [...serverModuleZones, ...sharedZones] }],
    },
  },
  {
    // Tests may reach into another module to arrange a case (the zones above without the server modules').
    files: SERVER_TEST_FILES,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: sharedZones }] },
  },
  {
    // Only repositories talk to the database: no knex import (type imports for transactions are fine anywhere)
    // and no query through the handle a service holds (`ctx.db('users')`, `trx('users')`, `db.raw(...)`);
    // services open transactions and pass them to repository functions.
    files: ['server/src/**/*.ts'],
    ignores: [
      'server/src/**/*.repository.ts',
      'server/src/lib/db.ts',
      'server/src/lib/migrator.ts',
      'server/src/**/*.test.ts',
      'server/src/**/*test-support.ts',
      'server/src/test/**',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'knex', message: 'Use knex in a *.repository.ts file.', allowTypeImports: true }] },
      ],
      'no-restricted-syntax': [
        'error',
        ...[
          "CallExpression[callee.type='Identifier'][callee.name=/^(db|trx|knex)$/]",
          "CallExpression[callee.type='MemberExpression'][callee.property.name='db']",
          "CallExpression[callee.property.name='raw'][callee.object.name=/^(db|trx|knex)$/]",
          "CallExpression[callee.property.name='raw'][callee.object.property.name='db']",
        ].map((selector) => ({ selector, message: 'Queries belong in a *.repository.ts file.' })),
      ],
    },
  },
  {
    // The browser bundle reads these modules for names and constants; a run-time zod import would ship the
    // validation library to every page (the tools' schemas get zod from tools/schema-kit.ts instead).
    files: ['contracts/src/{queue,jobs,checkout}.ts', 'contracts/src/tools/*.ts', 'contracts/src/routes/endpoints.ts'],
    ignores: ['contracts/src/tools/schema-kit.ts', 'contracts/src/tools/tool-schemas.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'zod', message: 'Keep zod out of the browser bundle.', allowTypeImports: true }] },
      ],
    },
  },
  {
    // Size limits, so a file keeps to one concern and a function fits a screen or two: 400 lines a file, 120 a
    // function, blank lines and comments counted. Tests and test support are exempt (a test file follows its
    // subject's cases).
    files: ['**/*.{ts,tsx,mjs}'],
    ignores: [
      '**/*.test.{ts,tsx}',
      '**/*.e2e.ts',
      '**/test-support/**',
      '**/*test-support.ts',
      'server/src/test/**',
      'runtime/src/testing/**',
    ],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    // Configuration is read once, in the config modules; everything else gets the parsed object.
    files: ['{runtime,server,worker}/src/**/*.ts'],
    ignores: [
      '**/config.ts',
      'runtime/src/env.ts',
      'runtime/src/testing/**',
      '**/*.test.ts',
      'server/src/test/**',
      'worker/src/test-support/**',
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read the environment only in a config module.' },
      ],
    },
  },
);

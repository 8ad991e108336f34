// Shared jest settings for the Node workspaces: TypeScript through SWC (no type checking in tests;
// `npm run typecheck` does that), tests beside the code as *.test.ts.
const path = require('node:path');

/** Builds a node-environment jest project for the folder `dir`. */
module.exports = function nodeProject(dir, extra = {}) {
  return {
    displayName: path.basename(dir),
    rootDir: dir,
    testEnvironment: 'node',
    testMatch: ['<rootDir>/**/*.test.ts'],
    testPathIgnorePatterns: ['/node_modules/', '/.cache/'],
    transform: {
      '^.+\\.(t|j)sx?$': [
        '@swc/jest',
        { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
      ],
    },
    moduleNameMapper: {
      '^@imagestudio/contracts$': path.join(__dirname, 'contracts/src/index.ts'),
      '^@imagestudio/runtime$': path.join(__dirname, 'runtime/src/index.ts'),
      '^@imagestudio/runtime/imaging$': path.join(__dirname, 'runtime/src/imaging/index.ts'),
      '^@imagestudio/runtime/testing$': path.join(__dirname, 'runtime/src/testing/index.ts'),
    },
    // No test reaches another machine (runtime/src/testing/block-network.ts).
    setupFiles: [path.join(__dirname, 'runtime/src/testing/jest-setup.ts')],
    ...extra,
  };
};

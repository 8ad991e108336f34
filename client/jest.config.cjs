// Client unit tests: jsdom + Testing Library, TSX through SWC with the automatic React runtime.
const path = require('node:path');
/** @type {import('jest').Config} */
module.exports = {
  displayName: 'client',
  rootDir: __dirname,
  testEnvironment: 'jsdom',
  testMatch: ['<rootDir>/src/**/*.test.ts?(x)'],
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic' } },
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper: {
    '^@imagestudio/contracts$': path.join(__dirname, '../contracts/src/index.ts'),
    '\\.(css|svg|png|jpg)$': path.join(__dirname, 'src/test/file-stub.cjs'),
  },
  setupFiles: [path.join(__dirname, 'src/test/setup-env.cjs'), path.join(__dirname, 'src/test/setup-english.ts')],
};

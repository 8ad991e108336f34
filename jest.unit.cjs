// `npm run test:unit`: the unit tier of every workspace (jest.tiers.cjs decides which files), with Postgres,
// Redis and S3 out of reach: their addresses point at a closed port, no globalSetup migrates a database, and
// jest.unit-guard.cjs refuses connections to the services' usual ports. A unit test that needs a service fails
// fast here; `npm test` (jest.config.cjs) still runs both tiers.
const path = require('node:path');
const { classify } = require('./jest.tiers.cjs');

const CLOSED = '127.0.0.1:1';
Object.assign(process.env, {
  IMAGESTUDIO_TEST_TIER: 'unit',
  DATABASE_URL: `postgres://postgres@${CLOSED}/no-database-in-unit-tests`,
  TEST_DATABASE_URL: `postgres://postgres@${CLOSED}/no-database-in-unit-tests`,
  E2E_DATABASE_URL: `postgres://postgres@${CLOSED}/no-database-in-unit-tests`,
  REDIS_URL: `redis://${CLOSED}/0`,
  TEST_REDIS_URL: `redis://${CLOSED}/0`,
  S3_ENDPOINT: `http://${CLOSED}`,
});

const WORKSPACES = ['contracts', 'runtime', 'server', 'worker', 'models', 'client'];
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function unitProject(workspace) {
  const dir = path.join(__dirname, workspace);
  const { globalSetup: _migrates, ...config } = require(path.join(dir, 'jest.config.cjs'));
  const integration = classify(dir)
    .filter((row) => row.tier === 'integration')
    .map((row) => `^${escape(row.file)}$`);
  return {
    ...config,
    testPathIgnorePatterns: [...(config.testPathIgnorePatterns ?? ['/node_modules/']), ...integration],
    setupFiles: [...(config.setupFiles ?? []), path.join(__dirname, 'jest.unit-guard.cjs')],
  };
}

/** @type {import('jest').Config} */
module.exports = {
  projects: WORKSPACES.map(unitProject),
  testTimeout: 10000,
  // Two workers even on two cores: some unit tests wait on real timers (slow-client timeouts), and another test
  // file runs meanwhile.
  maxWorkers: 2,
};

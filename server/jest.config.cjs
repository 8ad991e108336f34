module.exports = require('../jest.node.cjs')(__dirname, {
  globalSetup: '<rootDir>/src/test/global-setup.ts',
  // The OpenAPI validator used by the tests ships only as ES modules: SWC compiles it like our sources.
  transformIgnorePatterns: ['/node_modules/(?!@seriousme/openapi-schema-validator/)'],
});

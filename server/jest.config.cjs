module.exports = require('../jest.node.cjs')(__dirname, {
  globalSetup: '<rootDir>/src/test/global-setup.ts',
});

module.exports = require('../jest.node.cjs')(__dirname, { testEnvironment: require.resolve('./jest-environment.cjs') });

// One jest run over every workspace; each project keeps its own environment (node, or jsdom for the client).
/** @type {import('jest').Config} */
module.exports = {
  projects: [
    '<rootDir>/contracts',
    '<rootDir>/runtime',
    '<rootDir>/server',
    '<rootDir>/worker',
    '<rootDir>/models',
    '<rootDir>/client',
  ],
  testTimeout: 30000,
};

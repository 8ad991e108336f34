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
  // Every suite closes what it opens, but one handle (a timer of a client whose server a test shut down) has
  // kept the process alive after the last result; the run must end with its results, never hang CI.
  forceExit: true,
};

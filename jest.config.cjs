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
  // One test file at a time on a 2-core machine, but in a worker process that is replaced once it holds more than
  // this after a file: run in the main process, the whole suite's leftovers (native image buffers, model sessions)
  // grew past Node's 4 GB heap in a CI run, with GC pauses of seconds before that.
  workerIdleMemoryLimit: '1536MB',
};

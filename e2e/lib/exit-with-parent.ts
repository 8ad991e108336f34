/**
 * Loaded with `--import` into the API and worker processes the browser tests start. Playwright may end the
 * process that started them without running its teardown (a second Ctrl-C, a worker process it kills after
 * a timeout, SIGKILL); such a child would keep running with its port, queue and Redis connections. When the
 * parent goes away the child is re-parented, so a changed parent pid stops it the ordinary way (one SIGTERM:
 * graceful shutdown), and for good after 15 s if that hangs.
 */
const parent = process.ppid;

const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  process.kill(process.pid, 'SIGTERM');
  setTimeout(() => process.exit(1), 15_000).unref();
}, 1000);
// The check alone must not keep a finished process alive.
watch.unref();

export {};

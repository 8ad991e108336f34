/**
 * Loaded with `--import` (see child-guard.ts) into the API and worker processes that `npm start` and the
 * browser tests start. Their parent may end without stopping them (SIGKILL, a wrapper that kills it, a test
 * runner ending a worker process after a timeout); such a child would keep running with its port, queue and
 * Redis connections. When the parent goes away the child is re-parented, so a changed parent pid stops it the
 * ordinary way (one SIGTERM: graceful shutdown), and for good after 15 s if that hangs.
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

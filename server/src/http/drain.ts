import type http from 'node:http';

/** How often a draining server closes the keep-alive connections that have gone idle since the last look. */
const IDLE_SWEEP_MS = 250;

/**
 * Long-lived responses (the job and batch event streams) that a drain ends at once: their browsers reconnect
 * (EventSource's retry) to another API process, where nothing is lost, while waiting for them would hold the
 * drain for the whole grace.
 */
const openStreams = new Set<() => void>();

/** Registers a long-lived response's ending; the returned function unregisters it (when it ends by itself). */
export function registerOpenStream(end: () => void): () => void {
  openStreams.add(end);
  return () => openStreams.delete(end);
}

/**
 * Stops an HTTP server the way a rollout needs: no new connections, open event streams ended, idle keep-alive
 * connections closed as they go idle, and requests in flight (an upload on a slow line, a download) given up to
 * `graceMs` to finish before the remaining connections are cut. Resolves once the server has closed.
 */
export async function drainHttpServer(server: http.Server, graceMs: number): Promise<{ cut: boolean }> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  for (const end of [...openStreams]) end();
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  let cut = false;
  const grace = setTimeout(() => {
    cut = true;
    server.closeAllConnections();
  }, graceMs);
  try {
    await closed;
  } finally {
    clearInterval(sweep);
    clearTimeout(grace);
  }
  return { cut };
}

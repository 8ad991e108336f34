import compression from 'compression';
import type { RequestHandler } from 'express';

/** Replies smaller than this go out as they are: compressing them costs more time than it saves bytes. */
const THRESHOLD_BYTES = 1024;

/**
 * Compresses JSON replies over 1 KB on the fly (brotli at the library's fast quality 4 when the client accepts
 * it, else gzip), with `Vary: Accept-Encoding`. Only JSON: the job progress stream (text/event-stream) must
 * reach the browser event by event, and static files are served from their build-time .br/.gz copies.
 */
export function compressJson(): RequestHandler {
  const compress = compression({
    threshold: THRESHOLD_BYTES,
    filter: (_req, res) => /^application\/(.+\+)?json\b/.test(String(res.getHeader('Content-Type') ?? '')),
  });
  // A client that accepts no encoding (scripts, API clients, probes) gets the reply as it is: the library's
  // per-request wrapping of write/end would be pure cost there. An identity reply needs no Vary: it is right
  // for every client, so a shared cache may hand it to anyone.
  return (req, res, next) => (req.headers['accept-encoding'] ? compress(req, res, next) : next());
}

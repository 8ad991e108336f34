import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '@imagestudio/runtime';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

declare module 'http' {
  interface IncomingMessage {
    /** Request id: from a well-formed X-Request-Id header, else generated. Travels into job payloads. */
    id: string;
    /** A logger bound to this request's id (created on first use). */
    log: Logger;
  }
}

/**
 * Request id + access log. Every request gets an id (taken from a well-formed `X-Request-Id` set by a
 * proxy, or generated), echoed in the response header. One line is logged when the response finishes:
 * errors always, successes only at debug level. A per-request child logger is made only when something
 * asks for `req.log`, because building one for every request cost more than the rest of a cached
 * catalog read (measured with bench/sections/catalog.ts).
 */
export function requestLogger(logger: Logger): RequestHandler {
  const logSuccess = logger.isLevelEnabled('debug');
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    req.id = id;
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', { configurable: true, get: () => (child ??= logger.child({ reqId: id })) });
    res.setHeader('X-Request-Id', id);
    const started = performance.now();
    res.on('finish', () => {
      const status = res.statusCode;
      if (status < 400 && !logSuccess) return;
      const entry = {
        reqId: id,
        method: req.method,
        url: req.originalUrl,
        status,
        ms: Math.round(performance.now() - started),
      };
      if (status >= 500) logger.error(entry, 'request failed');
      else if (status >= 400) logger.info(entry, 'request rejected');
      else logger.debug(entry, 'request');
    });
    next();
  };
}

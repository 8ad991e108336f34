import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from '@imagestudio/runtime';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;
/** Query parameters whose values never reach the log: anything named like a credential. */
const SECRET_PARAM = /key|token|secret|passw|pwd|signature|auth|session|credential/i;
/** Our own secrets by their shape (API keys, webhook secrets), wherever in a URL they appear. */
const SECRET_SHAPE = /\b(isk_live_|whsec_)[A-Za-z0-9_%-]+/gi;

/**
 * A URL as the log may show it: the values of query parameters named like secrets (`api_key`, `token`,
 * `password`, ...) and anything shaped like our API keys or webhook secrets become `[redacted]`; the rest is
 * kept as sent, so the line still tells what was called.
 */
export function redactUrlSecrets(url: string): string {
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  const query =
    at < 0
      ? undefined
      : url
          .slice(at + 1)
          .split('&')
          .map((pair) => {
            const eq = pair.indexOf('=');
            if (eq < 0) return pair;
            let name = pair.slice(0, eq);
            try {
              name = decodeURIComponent(name.replace(/\+/g, ' '));
            } catch {
              // keep it as sent
            }
            return SECRET_PARAM.test(name) ? `${pair.slice(0, eq)}=[redacted]` : pair;
          })
          .join('&');
  return (query === undefined ? path : `${path}?${query}`).replace(SECRET_SHAPE, '$1[redacted]');
}
/**
 * The app's logger and the request's child logger, kept on the request under keys no other code uses. Registered
 * symbols (Symbol.for), because the getter below is defined once per process on Node's own prototype: a second copy
 * of this module (jest loads one per test file into the same process) must use the keys the getter reads, or
 * `req.log` is undefined and that file's request log lines are lost.
 */
const BASE_LOGGER = Symbol.for('imagestudio.request-logger.base');
const CHILD_LOGGER = Symbol.for('imagestudio.request-logger.child');

declare module 'http' {
  interface IncomingMessage {
    /** Request id: from a well-formed X-Request-Id header, else generated. Travels into job payloads. */
    id: string;
    /** A logger bound to this request's id (created on first use). */
    log: Logger;
    [BASE_LOGGER]?: Logger;
    [CHILD_LOGGER]?: Logger;
  }
}

// `req.log` is a getter on the prototype, defined once: defining it on every request object
// (Object.defineProperty) cost a measurable share of a cheap signed-in read, and most requests never log.
if (!Object.getOwnPropertyDescriptor(IncomingMessage.prototype, 'log')) {
  Object.defineProperty(IncomingMessage.prototype, 'log', {
    configurable: true,
    get(this: IncomingMessage): Logger | undefined {
      const base = this[BASE_LOGGER];
      if (!base) return undefined;
      return (this[CHILD_LOGGER] ??= base.child({ reqId: this.id }));
    },
  });
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
    req[BASE_LOGGER] = logger;
    res.setHeader('X-Request-Id', id);
    const started = performance.now();
    res.on('finish', () => {
      const status = res.statusCode;
      if (status < 400 && !logSuccess) return;
      const entry = {
        reqId: id,
        method: req.method,
        url: redactUrlSecrets(req.originalUrl),
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

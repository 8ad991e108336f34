import type { RequestHandler } from 'express';
import { AppError } from '../lib/errors';
import { BODY_MESSAGES, errorHandler } from './error-handler';

/**
 * A small body (JSON or a urlencoded form, at most 100 KB on /api) must arrive whole within `ms`, else the reader
 * fails with 408 and the connection closes after the reply. body-parser waits for as long as the client sends, so a
 * sign-in trickled a byte at a time held its connection until the 10-minute request timeout. Multipart uploads
 * are left to the upload reader, which enforces a minimum rate of its own.
 */
export function bodyDeadline(ms: number): RequestHandler {
  return (req, res, next) => {
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (!hasBody || req.is('multipart/form-data')) return next();
    const timer = setTimeout(() => {
      if (req.readableEnded || res.headersSent) return;
      // Answered here: body-parser would pass on its failure only once the request ended, which a trickle
      // never does. The connection closes after the reply, which ends the reader too.
      res.set('Connection', 'close');
      res.once('finish', () => req.socket.destroy());
      errorHandler(new AppError('request_timeout', BODY_MESSAGES.tooSlow), req, res, next);
    }, ms);
    const clear = () => clearTimeout(timer);
    req.once('end', clear);
    res.once('close', clear);
    next();
  };
}

import type { Request, RequestHandler, Response } from 'express';
import { AppError, serviceUnavailable } from '../../lib/errors';
import { currentUser } from '../../http/current-user';
import {
  FIRST_RESERVATION_BYTES,
  RETRY_AFTER_S,
  UPLOAD_BUSY_MESSAGE,
  UPLOAD_MESSAGES_FLOW,
  UploadSession,
} from './upload-budget';
import type { UploadsDeps } from './uploads.deps';

const sessions = new WeakMap<Request, UploadSession>();

/** The upload opened for this request by `admitUpload`. */
export function uploadSessionOf(req: Request): UploadSession {
  const session = sessions.get(req);
  if (!session) throw new Error('the route reads an upload without admitUpload before it');
  return session;
}

/**
 * After a refusal the rest of the body is read and dropped while it keeps arriving: at least LINGER_MIN_BYTES in
 * every LINGER_CHECK_MS, for at most LINGER_MAX_MS in all.
 */
const LINGER_CHECK_MS = 1000;
const LINGER_MIN_BYTES = 64 * 1024;
const LINGER_MAX_MS = 30_000;

/**
 * The reply that ends an upload whose body is still arriving. After it, Node reads the rest of the body and drops
 * it; a body that stops arriving (less than LINGER_MIN_BYTES in a LINGER_CHECK_MS) or is still arriving after
 * LINGER_MAX_MS is cut off with its connection. Closing the connection as soon as the reply was sent made the
 * kernel answer the client's next bytes with a reset, and a client still writing (Node's fetch among them)
 * reported EPIPE or ECONNRESET instead of the 429 and its Retry-After; a fixed 2 s of reading still cut 10 MB
 * bodies on a loaded machine. Dropping costs no memory or disk, and a client that trickles is cut within a second.
 */
export function endUpload(req: Request, res: Response, err: AppError): AppError {
  res.once('finish', () => {
    if (req.complete || req.socket.destroyed) return;
    const socket = req.socket;
    const started = Date.now();
    let lastRead = socket.bytesRead;
    const timer = setInterval(() => {
      const read = socket.bytesRead;
      const stalled = read - lastRead < LINGER_MIN_BYTES;
      lastRead = read;
      if (stalled || Date.now() - started >= LINGER_MAX_MS) {
        clear();
        socket.destroy();
      }
    }, LINGER_CHECK_MS);
    timer.unref();
    const clear = () => clearInterval(timer);
    req.once('end', clear);
    socket.once('close', clear);
  });
  return err;
}

/**
 * Watches the body's rate for a reader: one that arrives slower than the minimum is reported (`too_slow`) and
 * ended through `fail` with the 408 that closes the upload.
 */
export function endWhenTooSlow(
  req: Request,
  res: Response,
  session: UploadSession,
  fail: (err: AppError) => void,
): void {
  session.watchRate(() => {
    const { minBytesPerSecond, rateWindowMs } = session.budget.limits;
    session.budget.refused('too_slow', {
      userId: session.userId,
      receivedBytes: session.receivedBytes,
      minBytesPerSecond,
      windowS: rateWindowMs / 1000,
    });
    fail(endUpload(req, res, new AppError('request_timeout', UPLOAD_MESSAGES_FLOW.tooSlow)));
  });
}

/**
 * Route guard for an upload (after the user is known): an upload past the in-flight limit (UPLOAD_MAX_PER_USER
 * per account in the browser, UPLOAD_MAX_PER_API_KEY per key) is a 429 and a full budget a 503, both with
 * Retry-After and before the body is read or anything charged. Otherwise the upload holds its declared length,
 * at most 64 KB, and grows its reservation as the reader writes what arrives.
 */
export function admitUpload(ctx: UploadsDeps): RequestHandler {
  return (req, res, next) => {
    const declared = Number(req.headers['content-length']);
    const first = Number.isFinite(declared) && declared > 0 ? Math.min(declared, FIRST_RESERVATION_BYTES) : 0;
    const user = currentUser(req);
    const budget = ctx.services.uploadBudget;
    const session = budget.open(user.id, res, first, req.apiKeyId);
    if (session instanceof UploadSession) {
      sessions.set(req, session);
      return next();
    }
    const headers = { 'Retry-After': String(RETRY_AFTER_S) };
    if (session === 'per_user') {
      const limit = budget.limitFor(req.apiKeyId);
      budget.refused('per_user', { userId: user.id, apiKeyId: req.apiKeyId, limit });
      const message = UPLOAD_MESSAGES_FLOW.perUser(limit);
      return next(endUpload(req, res, new AppError('rate_limited', message, { headers })));
    }
    budget.refused('disk_full', { userId: user.id, reservedBytes: budget.reservedBytes });
    next(endUpload(req, res, serviceUnavailable(UPLOAD_BUSY_MESSAGE, headers)));
  };
}

import type { RequestHandler, Response } from 'express';
import type { AppContext } from '../../context';
import { serviceUnavailable } from '../../lib/errors';

/** What a refused upload is told (translations in migrations/seeds/strings/server.json). */
export const UPLOAD_BUSY_MESSAGE = 'Too many large uploads are arriving right now. Please try again in a minute.';
/** Seconds a refused client is asked to wait (Retry-After). */
const RETRY_AFTER_S = 30;

/**
 * How many bytes of uploads one API process holds in memory at once. Uploads are read whole into memory before
 * they are checked and stored (a single image up to 20 MB, a batch up to 200 MB), so a handful of large batches
 * arriving together could otherwise take the process past its memory and down for every customer. Each upload
 * reserves its declared size (the route's maximum when it declares none) before its body is read and gives it
 * back when its response is done; one that does not fit is a 503 with Retry-After before anything is read or
 * charged. An upload is always let in when nothing else is reserved, so no size the routes accept is refused
 * for good.
 */
export class UploadMemoryBudget {
  private used = 0;

  constructor(readonly limitBytes: number) {}

  /** Bytes reserved now. */
  get reservedBytes(): number {
    return this.used;
  }

  /** Reserves `bytes` until `res` closes; false (nothing reserved) when that would pass the limit. */
  reserveUntilClosed(res: Response, bytes: number): boolean {
    if (this.used > 0 && this.used + bytes > this.limitBytes) return false;
    this.used += bytes;
    res.once('close', () => {
      this.used -= bytes;
    });
    return true;
  }
}

export function createUploadMemoryBudget(config: { UPLOAD_MEMORY_MB: number }): UploadMemoryBudget {
  return new UploadMemoryBudget(config.UPLOAD_MEMORY_MB * 1024 * 1024);
}

/**
 * Route guard for an upload of at most `maxBytes`: reserves the request's Content-Length (capped at `maxBytes`;
 * the upload's own reader refuses a larger body with a 413) or `maxBytes` for a body sent without a length.
 */
export function reserveUploadMemory(ctx: AppContext, maxBytes: number): RequestHandler {
  return (req, res, next) => {
    const declared = Number(req.headers['content-length']);
    const bytes = Number.isFinite(declared) && declared > 0 ? Math.min(declared, maxBytes) : maxBytes;
    if (ctx.services.uploadMemory.reserveUntilClosed(res, bytes)) return next();
    // The body is not read: the connection closes after the reply, so the client's upload stops there.
    res.once('finish', () => req.socket.destroy());
    next(serviceUnavailable(UPLOAD_BUSY_MESSAGE, { 'Retry-After': String(RETRY_AFTER_S), Connection: 'close' }));
  };
}

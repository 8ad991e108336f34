import { pipeline, type Readable, type Transform } from 'node:stream';
import type { Request, Response } from 'express';

/** Error codes of a client that went away mid-download: its own doing, not the server's failure. */
const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ERR_STREAM_DESTROYED']);

/**
 * Streams a download (`source` through `transforms`) into the response and makes sure every part of it ends
 * when the client does:
 * - pipeline destroys the source when the response closes, so what feeds it (a database page, an S3 read, a
 *   ZIP writer) stops at once instead of waiting for a reader that left;
 * - a client that keeps the connection but stops reading makes no progress on its socket; after `stallMs` of
 *   that (within a tenth of it) the response is destroyed, so a stalled download holds neither a socket nor what
 *   feeds it.
 * Headers must be set before the call; an error after the first byte can only cut the download, so it is logged.
 */
export function sendDownload(
  req: Request,
  res: Response,
  stallMs: number,
  source: Readable,
  ...transforms: Transform[]
): void {
  // The socket's own idle timeout fires up to twice its time late while a write is queued (Node re-arms it once
  // when the write queue's size changed), so progress is watched here: bytes handed to the socket.
  let last = -1;
  let since = Date.now();
  const watch = setInterval(
    () => {
      const written = res.socket?.bytesWritten ?? 0;
      if (written !== last) {
        last = written;
        since = Date.now();
      } else if (Date.now() - since >= stallMs) res.destroy(new Error(`download stalled for ${stallMs} ms`));
    },
    Math.max(50, Math.min(1000, stallMs / 10)),
  );
  watch.unref();
  res.once('close', () => clearInterval(watch));
  pipeline([source, ...transforms, res], (err) => {
    if (!err) return;
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (CLIENT_GONE.has(code) || err.message.startsWith('download stalled'))
      req.log?.info({ code, reason: err.message }, 'download ended by the client');
    else req.log?.error({ err }, 'download ended early');
  });
}

import type { Readable } from 'node:stream';
import type { Request, Response } from 'express';
import yazl from 'yazl';
import {
  BATCH_FAILED_CSV_COLUMNS,
  BATCH_FAILED_CSV_NAME,
  BATCH_ZIP_MESSAGES,
  resultDownloadName,
} from '@imagestudio/contracts';
import { sendDownload } from '../../http/download-stream';
import { csvText } from '../../lib/csv';
import type { JobRow } from '../jobs';
import { currentItems } from './batch-presenter';
import type { BatchRow } from './batches.repository';
import type { BatchesDeps } from './batches.deps';

/** Hands out each name once: a name already taken gets -2, -3, ... before its extension. */
export class UniqueNames {
  private readonly taken = new Set<string>();

  take(name: string): string {
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let n = 2; this.taken.has(candidate.toLowerCase()); n += 1) candidate = `${stem}-${n}${ext}`;
    // Case-insensitive, so the ZIP unpacks without clashes on Windows and macOS too.
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}

/** Why an item has no file in the ZIP. */
function missingReason(row: JobRow): string {
  if (row.status === 'queued' || row.status === 'running') return BATCH_ZIP_MESSAGES.notFinished;
  if (row.status === 'succeeded') return row.deleted_at ? 'The result was deleted.' : 'The result has expired.';
  return row.error ?? row.status;
}

/**
 * GET /api/batches/{id}/zip: the batch's results as one ZIP, written by yazl straight into the response.
 * Each result is read from S3 only when its turn comes (addReadStreamLazy) and passes through without being
 * held, so neither the ZIP nor a whole result is ever kept in memory or on disk. Images are stored, not
 * deflated (they are compressed already). When an item has no result, failed.csv closes the archive with
 * each such item and why (cells made safe for spreadsheets by the one CSV writer, server/src/lib/csv.ts). A failure mid-way (S3 gone) aborts the response, so the client sees a broken download
 * rather than a short ZIP that looks whole; so does a client that stops reading for DOWNLOAD_STALL_TIMEOUT_MS.
 */
export function streamBatchZip(ctx: BatchesDeps, req: Request, res: Response, batch: BatchRow, rows: JobRow[]): void {
  const zip = new yazl.ZipFile();
  const names = new UniqueNames();
  const missing: Record<(typeof BATCH_FAILED_CSV_COLUMNS)[number], string>[] = [];
  for (const row of currentItems(rows)) {
    const filesGone = row.deleted_at !== null || row.expired_at !== null;
    const files = row.status === 'succeeded' && row.result && !filesGone ? row.result.files : [];
    if (files.length === 0) {
      missing.push({
        file_name: row.input_name ?? '',
        job_id: row.id,
        status: row.status,
        reason: missingReason(row),
      });
      continue;
    }
    files.forEach((file, index) => {
      const name = names.take(resultDownloadName(row, index, file.format));
      zip.addReadStreamLazy(name, { compress: false, mtime: row.finished_at ?? new Date() }, (done) => {
        ctx.storage.getStream(file.key).then(
          (stream) => done(null, stream),
          (err: unknown) => done(err, undefined as never),
        );
      });
    });
  }
  // Only when an item has no result: a batch where everything worked unpacks to just its images.
  if (missing.length > 0)
    zip.addBuffer(Buffer.from(csvText(missing, BATCH_FAILED_CSV_COLUMNS)), names.take(BATCH_FAILED_CSV_NAME), {
      mtime: new Date(),
    });
  zip.end();

  const day = batch.created_at.toISOString().slice(0, 10);
  res.status(200).set({
    'Content-Type': 'application/zip',
    'Content-Disposition': `attachment; filename="batch-${day}-${batch.id.slice(0, 8)}.zip"`,
    'Cache-Control': 'private, no-store',
  });
  zip.on('error', (err: Error) => {
    ctx.logger.warn({ err, batchId: batch.id }, 'batch ZIP aborted');
    res.destroy(err);
  });
  sendDownload(req, res, ctx.config.DOWNLOAD_STALL_TIMEOUT_MS, zip.outputStream as Readable);
}

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { AppError } from '../../lib/errors';
import type { FormReader } from './form-reader';
import { type FileRule, MULTIPART_MESSAGES, type ReceivedFile } from './multipart-spec';
import { endUpload } from './upload-admission';

/**
 * Writes one file part to its temporary file as it arrives, hashing it, reserving disk for each chunk and
 * measuring it against its rule and the form's total; settles when the part has ended (or the form was refused).
 * A file past its rule's size that the form skips is dropped (its bytes still counted); anything else past a
 * limit refuses the form.
 */
export function receiveFile(
  form: FormReader,
  file: ReceivedFile,
  rule: FileRule,
  stream: Readable,
  filePath: string,
): Promise<void> {
  return new Promise<void>((done) => {
    if (form.failed) {
      stream.resume();
      return done();
    }
    const hash = createHash('sha256');
    const writer = fs.createWriteStream(filePath);
    let out: fs.WriteStream | null = writer;
    form.writers.add(writer);
    file.path = filePath;
    const drop = () => {
      if (!out) return;
      form.writers.delete(out);
      out.destroy();
      out = null;
      file.path = null;
    };
    writer.on('error', () => {
      // A write still in flight when the file was dropped (or the form refused) is expected to fail.
      if (out !== writer || form.failed) return;
      drop();
      form.fail(new AppError('bad_request', MULTIPART_MESSAGES.unreadable));
    });
    stream.on('data', (chunk: Buffer) => {
      if (form.failed) return;
      form.totalBytes += chunk.length;
      file.size += chunk.length;
      if (form.totalBytes > form.spec.maxTotalBytes) return form.fail(form.tooLarge());
      if (file.size > rule.maxBytes) {
        if (rule.oversize === 'refuse') return form.fail(form.tooLarge());
        drop();
      }
      if (!out) return;
      if (!form.session.reserve(chunk.length))
        return form.fail(endUpload(form.req, form.res, form.session.budgetFull('body')));
      hash.update(chunk);
      if (!out.write(chunk)) {
        stream.pause();
        out.once('drain', () => stream.resume());
      }
    });
    stream.on('limit', () => form.fail(form.tooLarge()));
    stream.on('error', () => done());
    stream.on('end', () => {
      if (!out || form.failed) return done();
      const w = out;
      w.end(() => {
        form.writers.delete(w);
        file.sha256 = hash.digest('hex');
        done();
      });
    });
  });
}

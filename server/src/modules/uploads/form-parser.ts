import busboy from 'busboy';
import type { Request } from 'express';
import { AppError } from '../../lib/errors';
import { type FormSpec, MULTIPART_LIMITS, MULTIPART_MESSAGES } from './multipart-spec';

/** Parts busboy may hand over beyond the fields and files: room for the one extra of each it reports. */
const SPARE_PARTS = 3;

/**
 * busboy set up for the form: its own limits one above the form's, so that the readers see the extra part and
 * refuse it themselves (busboy's *Limit events back them up). A multipart Content-Type it cannot use (no
 * boundary, say) is a 400.
 */
export function formParser(req: Request, spec: FormSpec): busboy.Busboy {
  const totalFiles = Object.values(spec.files).reduce((n, rule) => n + rule.maxCount, 0);
  const longestField = Math.max(MULTIPART_LIMITS.fieldBytes, ...Object.values(spec.longFields ?? {}));
  try {
    return busboy({
      headers: req.headers,
      // Browsers and curl send file names as raw UTF-8 bytes.
      defParamCharset: 'utf8',
      limits: {
        // One more file and field than allowed, so that busboy hands us the extra one and the 'file' and
        // 'field' handlers refuse it; its *Limit events are the backstop.
        files: totalFiles + 1,
        fields: MULTIPART_LIMITS.fields + 1,
        parts: MULTIPART_LIMITS.fields + totalFiles + SPARE_PARTS,
        // Each file is measured by the reader; busboy's own limit only backs that up.
        fileSize: spec.maxTotalBytes + 1,
        // busboy flags a value as truncated once it reaches fieldSize, so one byte more lets a value of exactly
        // fieldBytes through whole. (Its fieldNameSize applies to urlencoded forms only; the reader checks names.)
        // With long fields busboy keeps up to the longest, and the reader checks the other fields' limit.
        fieldSize: longestField + 1,
      },
    });
  } catch {
    throw new AppError('bad_request', MULTIPART_MESSAGES.unreadable);
  }
}

import type { FieldErrors } from '@imagestudio/contracts';
import { AppError } from '../../lib/errors';
import type { JobInputFile } from '../jobs/admit-jobs';
import { inspectUpload } from '../uploads/image-inspect';

/**
 * The further file parts of a tool's request (the contract's `fileFields`, e.g. background removal's
 * `background_image`), the same way for single calls, batches and re-compositions.
 */

/**
 * The request's text fields with each file field set to `true` when its file came and removed otherwise, so the
 * definition's parse sees which files are there (and a text field cannot pretend to be a file).
 */
export function withFileFlags(
  fields: unknown,
  fileFields: readonly string[] | undefined,
  sent: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...((fields ?? {}) as Record<string, unknown>) };
  for (const field of fileFields ?? []) {
    if (sent.includes(field)) out[field] = 'true';
    else delete out[field];
  }
  return out;
}

/** A 422 about the uploaded image, said of another field (the image checks name `image`). */
function renamed(err: unknown, field: string): unknown {
  if (!(err instanceof AppError) || !err.errors?.image) return err;
  const errors: FieldErrors = { [field]: err.errors.image };
  return new AppError(err.code, err.message, { errors, headers: err.headers });
}

/** One further file checked like the main image (type, size, pixels, bombs) and cleaned; a 422 names its field. */
export async function inspectFilePart(field: string, bytes: Buffer): Promise<{ bytes: Buffer; contentType: string }> {
  try {
    const clean = await inspectUpload(bytes);
    return { bytes: clean.bytes, contentType: clean.contentType };
  } catch (err) {
    throw renamed(err, field);
  }
}

/** Every further file of a request checked and cleaned, as the job's further inputs. */
export async function inspectFileParts(
  files: Record<string, Buffer> | undefined,
): Promise<Record<string, JobInputFile>> {
  const out: Record<string, JobInputFile> = {};
  for (const [field, bytes] of Object.entries(files ?? {})) out[field] = await inspectFilePart(field, bytes);
  return out;
}

import fs from 'node:fs';
import type { Request, RequestHandler, Response } from 'express';
import { LIMITS } from '@imagestudio/contracts';
import { admitUpload, decodeBase64, readEncodedBody, readForm, UPLOAD_MESSAGES } from '../uploads';
import type { AppContext } from '../../context';
import { badField } from './removebg-errors';

/**
 * A /v1.0 body, whatever its encoding: the text fields (image_file_b64 already decoded, a DecodedBase64) and the
 * uploaded files (multipart only).
 */
export interface RemoveBgBody {
  fields: Record<string, unknown>;
  imageFile: { bytes: Buffer; name: string | null } | null;
  bgImageFile: Buffer | null;
}

/** An image at the upload limit as base64 (a third larger than its bytes), with room for a `data:` prefix. */
const ENCODED_IMAGE_MAX_BYTES = Math.ceil((LIMITS.uploadMaxBytes * 4) / 3) + 1024;

/** JSON and urlencoded bodies carry the image as base64: that, and room for the other fields. */
const ENCODED_BODY_MAX_BYTES = ENCODED_IMAGE_MAX_BYTES + 64 * 1024;

/** A urlencoded form's fields at most (remove.bg's fields, with room to spare). */
const FORM_FIELDS_MAX = 50;

function parseWith(handler: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => handler(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
}

/** A multipart body through the API's one form reader (upload budget, rate floor, strict fields). */
async function readMultipartBody(req: Request, res: Response): Promise<RemoveBgBody> {
  const rule = (field: string) => ({
    maxCount: 1,
    tooMany: { [field]: [`Send one ${field}.`] },
    maxBytes: LIMITS.uploadMaxBytes,
    oversize: 'refuse' as const,
  });
  const form = await readForm(req, res, {
    files: { image_file: rule('image_file'), bg_image_file: rule('bg_image_file') },
    maxTotalBytes: LIMITS.uploadMaxBytes * 2,
    tooLarge: UPLOAD_MESSAGES.tooLarge,
    wrongField: (got) => ({ [got]: [`Unexpected file field "${got}": send image_file or bg_image_file.`] }),
    notMultipart: {},
    // remove.bg takes base64 in a multipart form too; other text fields keep the API's 16 KB.
    longFields: { image_file_b64: ENCODED_IMAGE_MAX_BYTES },
  });
  const read = async (field: string) => {
    const file = form.files.find((f) => f.field === field);
    return file?.path ? { bytes: await fs.promises.readFile(file.path), name: file.name } : null;
  };
  const image = await read('image_file');
  const fields: Record<string, unknown> = { ...form.fields };
  // Decoded as the JSON and urlencoded readers decode it, so the route sees one kind of image_file_b64.
  const b64 = form.fields.image_file_b64;
  if (b64 !== undefined && b64.trim() !== '') fields.image_file_b64 = decodeBase64(b64, LIMITS.uploadMaxBytes);
  return { fields, imageFile: image, bgImageFile: (await read('bg_image_file'))?.bytes ?? null };
}

/**
 * Reads the body by its Content-Type: multipart/form-data, application/x-www-form-urlencoded or JSON. Every kind is
 * an upload (admitUpload: in flight per key, the upload budget, the minimum rate), read by the API's readers.
 */
export async function readRemoveBgBody(ctx: AppContext, req: Request, res: Response): Promise<RemoveBgBody> {
  const kind = req.is(['multipart/form-data', 'application/x-www-form-urlencoded', 'application/json']);
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!kind) {
    if (hasBody)
      throw badField(
        'invalid_request',
        'Invalid request',
        'Send multipart/form-data, application/x-www-form-urlencoded or application/json.',
      );
    return { fields: {}, imageFile: null, bgImageFile: null };
  }
  await parseWith(admitUpload(ctx), req, res);
  if (kind === 'multipart/form-data') return readMultipartBody(req, res);
  const fields = await readEncodedBody(req, res, {
    kind: kind === 'application/json' ? 'json' : 'urlencoded',
    maxBytes: ENCODED_BODY_MAX_BYTES,
    maxFields: FORM_FIELDS_MAX,
    base64Fields: { image_file_b64: LIMITS.uploadMaxBytes },
  });
  return { fields, imageFile: null, bgImageFile: null };
}

import sharp from 'sharp';
import type { Config } from '../../config';
import { AppError } from '../../lib/errors';
import { inspectUpload, isDecodedBase64, UPLOAD_MESSAGES, type CleanImage } from '../uploads';
import type { RemoveBgBody } from './removebg-body';
import { badField, RemoveBgError } from './removebg-errors';
import { fieldText } from './removebg-fields';
import { fetchImageUrl } from './image-url-fetch';
import { reducedSize, type OutputSize } from './removebg-sizes';

/** The job's input: the checked image, reduced to the size asked for, and what it was before. */
interface PreparedInput {
  image: CleanImage;
  name: string | null;
  /** The input's own size, when it was reduced for `size` (X-Max-Width / X-Max-Height say the reduced one). */
  reducedFrom: { width: number; height: number } | null;
}

/** Our upload checks' refusals as remove.bg's codes. */
function uploadRefusal(err: unknown, size: OutputSize): unknown {
  if (!(err instanceof AppError) || err.code !== 'validation_failed') return err;
  const message = err.message;
  if (message === UPLOAD_MESSAGES.tooLarge) return badField('file_too_large', 'File too large', message);
  if (message === UPLOAD_MESSAGES.tooManyPixels)
    return size.asksOverLimit
      ? badField('resolution_too_high', 'Resolution too high', message)
      : badField('invalid_dimensions', 'Invalid image dimensions', message);
  return badField('invalid_file_type', 'Invalid file type', message);
}

/** Exactly one of image_file, image_file_b64, image_url: the bytes, or remove.bg's 400. */
async function sourceBytes(config: Config, body: RemoveBgBody): Promise<{ bytes: Buffer; name: string | null }> {
  const b64 = body.fields.image_file_b64;
  const decoded = isDecodedBase64(b64) ? b64 : undefined;
  // Anything else (a number, an object) is refused by fieldText as not being text.
  if (!decoded) fieldText(body.fields, 'image_file_b64');
  const url = fieldText(body.fields, 'image_url');
  const count = [body.imageFile, decoded, url].filter((s) => s !== null && s !== undefined).length;
  if (count === 0)
    throw badField('missing_source', 'No image given', 'Send one of image_file, image_file_b64 or image_url.');
  if (count > 1)
    throw badField(
      'multiple_sources',
      'Multiple image sources given',
      'Send only one of image_file, image_file_b64 or image_url.',
    );
  if (body.imageFile) return body.imageFile;
  if (decoded) {
    if (decoded.error === 'invalid')
      throw badField('invalid_file_type', 'Invalid file type', 'image_file_b64 is not valid base64.');
    if (decoded.error === 'too_large') throw badField('file_too_large', 'File too large', UPLOAD_MESSAGES.tooLarge);
    return { bytes: decoded.bytes!, name: null };
  }
  const fetched = await fetchImageUrl(config, 'image_url', url!);
  return { bytes: fetched.bytes, name: fileNameOf(fetched.url) };
}

/** The URL's last path segment, to name the job in the customer's history. */
function fileNameOf(url: URL): string | null {
  const last = url.pathname.split('/').pop();
  if (!last) return null;
  try {
    return decodeURIComponent(last).slice(0, 255);
  } catch {
    return last.slice(0, 255);
  }
}

/**
 * The image to remove the background from: the one source, our upload checks (type from the bytes, size, pixel
 * count, animation; metadata stripped), then reduced to the size's pixel budget (aspect kept) before the job
 * runs, so a preview costs the worker a preview's work.
 */
export async function prepareInput(config: Config, body: RemoveBgBody, size: OutputSize): Promise<PreparedInput> {
  const source = await sourceBytes(config, body);
  let image: CleanImage;
  try {
    image = await inspectUpload(source.bytes);
  } catch (err) {
    throw uploadRefusal(err, size);
  }
  const target = reducedSize(image.width, image.height, size.maxPixels);
  if (target.width === image.width && target.height === image.height)
    return { image, name: source.name, reducedFrom: null };
  const pipeline = sharp(image.bytes).resize(target.width, target.height, { fit: 'fill' });
  const encoded =
    image.format === 'jpeg'
      ? pipeline.jpeg({ quality: 95, chromaSubsampling: '4:4:4' })
      : image.format === 'webp'
        ? pipeline.webp({ quality: 95 })
        : pipeline.png({ compressionLevel: 6 });
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
  return {
    image: { ...image, bytes: data, width: info.width, height: info.height },
    name: source.name,
    reducedFrom: { width: image.width, height: image.height },
  };
}

/** The background image (bg_image_file or bg_image_url), checked like an input; null when none is sent. */
export async function prepareBackground(
  config: Config,
  body: RemoveBgBody,
  bgImageUrl: string | null,
): Promise<CleanImage | null> {
  const bytes =
    body.bgImageFile ?? (bgImageUrl ? (await fetchImageUrl(config, 'bg_image_url', bgImageUrl)).bytes : null);
  if (!bytes) return null;
  try {
    return await inspectUpload(bytes);
  } catch (err) {
    if (err instanceof RemoveBgError || !(err instanceof AppError)) throw err;
    throw badField('invalid_file_type', 'Invalid background image', err.message);
  }
}

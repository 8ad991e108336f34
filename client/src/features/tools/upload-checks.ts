import { LIMITS, type UploadFormat } from '@imagestudio/contracts';
import type { MessageKey, MessageVars } from '../../lib/i18n';
import { headerSize } from './image-header';

/** A failed client-side check: the message key and its placeholders. */
export interface UploadProblem {
  key: MessageKey;
  vars?: MessageVars;
}

/** What the browser learned about a chosen file before uploading it. */
export interface UploadFacts {
  bytes: number;
  /** From the file's first bytes, never its name or declared type; null = not an accepted format. */
  format: UploadFormat | null;
  /** Decoded size, or read from the header of a HEIC or TIFF the browser cannot show; null: unreadable. */
  width: number | null;
  height: number | null;
  /** True when this browser cannot show the image (HEIC mostly, TIFF but in Safari): a placeholder stands in. */
  noPreview?: boolean;
}

const MB = 1024 * 1024;
const oneDecimal = (n: number) => String(Math.round(n * 10) / 10);

/** Bytes read to tell the format: enough for a HEIF `ftyp` box's usual list of brands. */
const HEAD_BYTES = 64;

/**
 * The upload format from the magic bytes (the server checks the same way), else null: TIFF by its byte-order
 * mark, AVIF and HEIC by the brands of their `ftyp` box.
 */
export function sniffFormat(head: Uint8Array): UploadFormat | null {
  const at = (i: number) => head[i] ?? -1;
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'jpeg';
  if ([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => at(i) === b)) return 'png';
  const ascii = (from: number, to: number) => String.fromCharCode(...head.slice(from, to));
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (head.length >= 8 && ['II*\0', 'MM\0*', 'II+\0', 'MM\0+'].includes(ascii(0, 4))) return 'tiff';
  if (head.length >= 16 && ascii(4, 8) === 'ftyp') {
    const size = Math.min(((at(0) << 24) | (at(1) << 16) | (at(2) << 8) | at(3)) >>> 0, head.length);
    const brands = [ascii(8, 12)];
    for (let i = 16; i + 4 <= size; i += 4) brands.push(ascii(i, i + 4));
    if (brands.some((b) => b === 'avif' || b === 'avis')) return 'avif';
    if (brands.some((b) => ['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1'].includes(b))) return 'heic';
  }
  return null;
}

/**
 * The upload limits of the API, checked in the browser so the user learns at once (type, then size,
 * then megapixels); the server checks again. `upscaleFactor` adds the upscale output limit.
 */
export function checkUpload(facts: UploadFacts, upscaleFactor?: number): UploadProblem | null {
  if (facts.bytes === 0) return { key: 'client-tools.upload.errors.empty' };
  if (!facts.format) return { key: 'client-tools.upload.errors.type' };
  if (facts.bytes > LIMITS.uploadMaxBytes) {
    return {
      key: 'client-tools.upload.errors.size',
      vars: { size: oneDecimal(facts.bytes / MB), max: LIMITS.uploadMaxBytes / MB },
    };
  }
  if (facts.width === null || facts.height === null) return { key: 'client-tools.upload.errors.unreadable' };
  const pixels = facts.width * facts.height;
  if (pixels > LIMITS.uploadMaxPixels) {
    return {
      key: 'client-tools.upload.errors.pixels',
      vars: { mp: oneDecimal(pixels / 1e6), max: LIMITS.uploadMaxPixels / 1e6 },
    };
  }
  if (upscaleFactor && pixels * upscaleFactor ** 2 > LIMITS.upscaleOutputMaxPixels) {
    return {
      key: 'client-tools.upscale.errors.outputTooLarge',
      vars: { factor: upscaleFactor, side: maxUpscaleSide(upscaleFactor) },
    };
  }
  return null;
}

/** The largest square input (in px per side) that a factor can upscale within the output limit. */
export function maxUpscaleSide(factor: number): number {
  return Math.floor(Math.sqrt(LIMITS.upscaleOutputMaxPixels) / factor);
}

/**
 * Reads a file's first bytes and decoded size in the browser; a HEIC or TIFF the browser cannot decode has its
 * size read from its header instead, and is marked as not previewable.
 */
export async function inspectFile(file: Blob): Promise<UploadFacts> {
  const head = new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer());
  const format = sniffFormat(head);
  const facts: UploadFacts = { bytes: file.size, format, width: null, height: null };
  // Decoding is skipped for what the server would refuse anyway (wrong type, too large).
  if (!format || file.size === 0 || file.size > LIMITS.uploadMaxBytes) return facts;
  const size = await decodedSize(file);
  if (size.width !== null || (format !== 'heic' && format !== 'tiff')) return { ...facts, ...size };
  const header = headerSize(new Uint8Array(await file.arrayBuffer()), format);
  return { ...facts, width: header?.width ?? null, height: header?.height ?? null, noPreview: true };
}

/** Formats a browser may be unable to show: their previews become a placeholder when it cannot. */
export function mayNotPreview(nameOrUrl: string): boolean {
  const path = nameOrUrl.split(/[?#]/)[0] ?? '';
  return /\.(heic|heif|tiff?)$/i.test(path);
}

/**
 * What a small slot shows for a job's or batch item's input: the server's WebP preview when it made one (for a
 * HEIC, AVIF or TIFF, or a large input), else the input itself, unless this browser may be unable to show it.
 */
export function shownInputUrl(view: { input_url: string | null; input_preview_url: string | null }): string | null {
  if (view.input_preview_url) return view.input_preview_url;
  return view.input_url && !mayNotPreview(view.input_url) ? view.input_url : null;
}

function decodedSize(file: Blob): Promise<{ width: number | null; height: number | null }> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    const done = (width: number | null, height: number | null) => {
      URL.revokeObjectURL(url);
      resolve({ width, height });
    };
    img.onload = () => done(img.naturalWidth || null, img.naturalHeight || null);
    img.onerror = () => done(null, null);
    img.src = url;
  });
}

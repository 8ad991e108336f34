/** Readable cookie that carries the session's XSRF token to the browser. */
export const CSRF_COOKIE_NAME = 'XSRF-TOKEN';
/** Header in which every mutating request echoes the XSRF token (lower case, as Node sees it). */
export const CSRF_HEADER_NAME = 'x-xsrf-token';

/**
 * The copyright setting's default (settings.ts). Kept here, out of the settings schema, so the browser's footer
 * can tell the default from an operator's own text without loading the validation library.
 */
export const DEFAULT_COPYRIGHT = '© 2026 Image Studio GmbH. All rights reserved.';

/** Upload and generation limits shared by the API, the worker and the client's pre-checks. */
export const LIMITS = {
  uploadMaxBytes: 20 * 1024 * 1024,
  uploadMaxPixels: 25_000_000,
  upscaleOutputMaxPixels: 64 * 1024 * 1024,
  promptMaxLength: 1000,
  imagesPerPromptMax: 4,
  jsonBodyMaxBytes: 100 * 1024,
  tokensMin: 0.1,
  tokensMax: 2000,
} as const;

/**
 * Image formats accepted as uploads (detected from the bytes, never the file name). `heic` is HEVC-coded HEIF
 * (phone photos), which browsers and the API's sharp cannot decode: the worker decodes it.
 */
export const UPLOAD_FORMATS = ['jpeg', 'png', 'webp', 'avif', 'tiff', 'heic'] as const;
export type UploadFormat = (typeof UPLOAD_FORMATS)[number];

/** The MIME type of each upload format (stored inputs carry it). */
export const UPLOAD_CONTENT_TYPES: Record<UploadFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  tiff: 'image/tiff',
  heic: 'image/heic',
};

import { asciiFileName } from '@imagestudio/contracts';

/** RFC 5987's attr-char: everything else in a `filename*` value is percent-encoded UTF-8. */
const encodeExtValue = (text: string) =>
  encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `attachment` with the download's name as RFC 6266 asks: `filename*=UTF-8''...` carries the real name
 * (umlauts, any script), `filename="..."` an ASCII fallback for clients that do not read `filename*`.
 */
export function attachmentDisposition(name: string): string {
  const fallback = asciiFileName(name).replace(/["\\]/g, '');
  if (fallback === name) return `attachment; filename="${name}"`;
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeExtValue(name)}`;
}

/** Longest base of a download name, so names stay readable in every file manager. */
const BASE_MAX = 60;

/**
 * The base of a user's file name: no folder, no extension, letters and digits of any script (NFC), `.`, `_`
 * and `-`; anything else (spaces, punctuation, characters some file systems refuse) becomes one `-`. A
 * "Frühstück.png" keeps its umlauts: downloads carry the name in RFC 6266's UTF-8 `filename*` with an ASCII
 * fallback (see asciiFileName).
 */
export function fileNameBase(name: string | null | undefined): string {
  const leaf = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = leaf
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\p{N}._-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  // Cut by characters, never inside a surrogate pair.
  return Array.from(cleaned)
    .slice(0, BASE_MAX)
    .join('')
    .replace(/[-.]+$/, '');
}

/** The same name in ASCII (accents dropped, other characters as `-`): the fallback for old clients. */
export function asciiFileName(name: string): string {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const ascii = stem
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  return `${ascii || 'download'}${ext.replace(/[^A-Za-z0-9.]/g, '')}`;
}

/** Longest base of a download name, so names stay readable in every file manager. */
const BASE_MAX = 60;

/** The base of a user's file name: no folder, no extension, only characters every file system takes. */
export function fileNameBase(name: string | null | undefined): string {
  const leaf = (name ?? '').split(/[\\/]/).pop() ?? '';
  const base = leaf
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, BASE_MAX)
    .replace(/[-.]+$/, '');
  return base;
}

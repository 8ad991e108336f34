import type { JobResultView } from '@imagestudio/contracts';

/**
 * Results stored before previews were written have no thumbnail: one this small is cheap enough to show as it is;
 * anything bigger gets no picture, so a list never downloads a multi-megabyte result for a small slot.
 */
const FULL_SIZE_FALLBACK_BYTES = 200 * 1024;

/** The URL a small slot (history row, project card, batch item) shows for a result: its preview, else the result
 * itself when it is small; null when there is nothing small enough to show. */
export function resultPreviewSrc(result: Pick<JobResultView, 'thumbnail_url' | 'url' | 'bytes'>): string | null {
  if (result.thumbnail_url) return result.thumbnail_url;
  return result.bytes <= FULL_SIZE_FALLBACK_BYTES ? result.url : null;
}

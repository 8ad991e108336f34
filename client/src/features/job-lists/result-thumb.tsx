import { ImageIcon } from 'lucide-react';
import type { JobResultView } from '@imagestudio/contracts';

/**
 * Results stored before previews were written have no thumbnail: one this small is cheap enough to show as it is;
 * anything bigger gets a plain picture icon, so a list never downloads a multi-megabyte result for a small slot.
 */
const FULL_SIZE_FALLBACK_BYTES = 200 * 1024;

/** The URL a list shows for a result: its preview, else the result itself when it is small. */
function thumbnailSrc(result: Pick<JobResultView, 'thumbnail_url' | 'url' | 'bytes'>): string | null {
  if (result.thumbnail_url) return result.thumbnail_url;
  return result.bytes <= FULL_SIZE_FALLBACK_BYTES ? result.url : null;
}

/** A result's preview in a list slot (history row, project card). */
export function ResultThumb({
  result,
  alt,
  size,
  className,
}: {
  result: JobResultView;
  alt: string;
  /** The slot's side in CSS pixels, when fixed (history); absent: the slot sizes the picture (project cards). */
  size?: number;
  className?: string;
}) {
  const src = thumbnailSrc(result);
  if (!src) {
    return (
      <span className={`result-thumb__none ${className ?? ''}`} role="img" aria-label={alt} data-testid="thumb-none">
        <ImageIcon aria-hidden="true" />
      </span>
    );
  }
  return <img className={className} src={src} alt={alt} loading="lazy" width={size} height={size} />;
}

import { ImageIcon } from 'lucide-react';
import type { JobResultView } from '@imagestudio/contracts';
import { resultPreviewSrc } from '../../lib/result-preview';

/** A result's preview in a list slot (history row, project card), or a kept composition's. */
export function ResultThumb({
  result,
  alt,
  size,
  className,
}: {
  result: Pick<JobResultView, 'thumbnail_url' | 'url' | 'bytes'>;
  alt: string;
  /** The slot's side in CSS pixels, when fixed (history); absent: the slot sizes the picture (project cards). */
  size?: number;
  className?: string;
}) {
  const src = resultPreviewSrc(result);
  if (!src) {
    return (
      <span className={`result-thumb__none ${className ?? ''}`} role="img" aria-label={alt} data-testid="thumb-none">
        <ImageIcon aria-hidden="true" />
      </span>
    );
  }
  return <img className={className} src={src} alt={alt} loading="lazy" width={size} height={size} />;
}

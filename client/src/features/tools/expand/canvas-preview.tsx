import { useEffect, useState, type CSSProperties } from 'react';
import { expandCanvas, type ExpandCanvas, type ExpandChoice } from '@imagestudio/contracts';
import './expand.css';

type Size = { width: number; height: number };

/** The longest side of the "before" picture drawn for the comparison: enough for the slider's frame on a 2x screen. */
const BEFORE_MAX_SIDE = 1600;

/** The photo's own size once the browser has read it (null before, or when it cannot show the image). */
function useNaturalSize(url: string | null): Size | null {
  const [size, setSize] = useState<Size | null>(null);
  useEffect(() => {
    setSize(null);
    if (!url) return;
    const img = new Image();
    img.onload = () => setSize({ width: img.naturalWidth, height: img.naturalHeight });
    img.src = url;
    return () => {
      img.onload = null;
    };
  }, [url]);
  return size;
}

/** Percentages of the canvas that place the photo on it (CSS). */
function photoBox(photo: Size, canvas: ExpandCanvas): CSSProperties {
  return {
    left: `${(canvas.left / canvas.width) * 100}%`,
    top: `${(canvas.top / canvas.height) * 100}%`,
    width: `${(photo.width / canvas.width) * 100}%`,
    height: `${(photo.height / canvas.height) * 100}%`,
  };
}

/**
 * The live preview of a choice: the new canvas as a dashed outline with the photo at its place in it, drawn
 * with the same rules the server and the worker use (expandCanvas), so what is shown is what will be made.
 */
export function CanvasOutline({ url, choice, label }: { url: string; choice: ExpandChoice; label: string }) {
  const photo = useNaturalSize(url);
  if (!photo) return null;
  const canvas = expandCanvas(photo, choice);
  return (
    <div
      className="expand-preview"
      role="img"
      aria-label={label}
      style={{ '--expand-aspect': String(canvas.width / canvas.height) } as CSSProperties}
      data-testid="expand-preview"
      data-canvas={`${canvas.width}x${canvas.height}`}
    >
      <img className="expand-preview__photo" src={url} alt="" style={photoBox(photo, canvas)} />
    </div>
  );
}

/**
 * The comparison's "before": the photo drawn at its place on a transparent canvas of the result's shape, so the
 * slider's two sides line up. A stored input on another origin is read with CORS (the store allows the app's
 * origin); where that fails the plain photo stands in.
 */
export function useBeforeOnCanvas(url: string | null, choice: ExpandChoice | null): string | null {
  const [drawn, setDrawn] = useState<string | null>(null);
  const key = choice ? `${choice.aspect ?? ''}|${choice.factor ?? ''}|${choice.position}` : null;
  useEffect(() => {
    setDrawn(null);
    if (!url || !choice) return;
    let made: string | null = null;
    let live = true;
    const img = new Image();
    if (!/^(blob|data):/.test(url)) img.crossOrigin = 'anonymous';
    img.onload = () => {
      const photo = { width: img.naturalWidth, height: img.naturalHeight };
      const canvas = expandCanvas(photo, choice);
      const scale = Math.min(1, BEFORE_MAX_SIDE / Math.max(canvas.width, canvas.height));
      const el = document.createElement('canvas');
      el.width = Math.round(canvas.width * scale);
      el.height = Math.round(canvas.height * scale);
      el.getContext('2d')?.drawImage(
        img,
        canvas.left * scale,
        canvas.top * scale,
        photo.width * scale,
        photo.height * scale,
      );
      try {
        el.toBlob((blob) => {
          if (!blob || !live) return;
          made = URL.createObjectURL(blob);
          setDrawn(made);
        }, 'image/png');
      } catch {
        // A canvas the browser calls tainted cannot be read: the plain photo stands in.
        if (live) setDrawn(url);
      }
    };
    img.onerror = () => {
      if (live) setDrawn(url);
    };
    img.src = url;
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [url, key]);
  return drawn;
}

import { useState, type PointerEvent } from 'react';

/** Diameter of the lens in CSS pixels. */
const LENS_PX = 180;

/**
 * An image with a round magnifier that follows the pointer and shows the image's own pixels (at least
 * 2x), so upscaled detail can be inspected without downloading.
 */
export function ZoomLens({ src, alt, naturalWidth }: { src: string; alt: string; naturalWidth: number }) {
  const [lens, setLens] = useState<{ x: number; y: number; bgX: number; bgY: number; bgW: number } | null>(null);

  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    const img = e.currentTarget.querySelector('img');
    if (!img) return;
    const rect = img.getBoundingClientRect();
    const x = e.clientX - rect.left;
    const y = e.clientY - rect.top;
    if (x < 0 || y < 0 || x > rect.width || y > rect.height) {
      setLens(null);
      return;
    }
    const zoom = Math.max(2, naturalWidth / rect.width);
    const bgW = rect.width * zoom;
    setLens({ x, y, bgX: -(x * zoom - LENS_PX / 2), bgY: -(y * zoom - LENS_PX / 2), bgW });
  };

  return (
    <div className="zoom checkerboard" onPointerMove={onMove} onPointerLeave={() => setLens(null)} data-testid="zoom-lens">
      <img src={src} alt={alt} draggable={false} />
      {lens ? (
        <span
          className="zoom__lens"
          aria-hidden="true"
          style={{
            width: LENS_PX,
            height: LENS_PX,
            left: lens.x - LENS_PX / 2,
            top: lens.y - LENS_PX / 2,
            backgroundImage: `url("${src}")`,
            backgroundSize: `${lens.bgW}px auto`,
            backgroundPosition: `${lens.bgX}px ${lens.bgY}px`,
          }}
        />
      ) : null}
    </div>
  );
}

import { useMediaQuery } from '../../../hooks/use-media-query';
import { useStore } from '../../../stores';
import { useLensControls } from './use-lens-controls';

/** Diameter of the lens in CSS pixels. */
const LENS_PX = 180;

/** The round magnifier at (x, y) of an image shown `width` wide, `zoom` times larger. */
function Lens({ src, x, y, width, zoom }: { src: string; x: number; y: number; width: number; zoom: number }) {
  return (
    <span
      className="zoom__lens"
      aria-hidden="true"
      data-zoom={zoom.toFixed(2)}
      style={{
        width: LENS_PX,
        height: LENS_PX,
        left: x - LENS_PX / 2,
        top: y - LENS_PX / 2,
        backgroundImage: `url("${src}")`,
        backgroundSize: `${width * zoom}px auto`,
        backgroundPosition: `${-(x * zoom - LENS_PX / 2)}px ${-(y * zoom - LENS_PX / 2)}px`,
      }}
    />
  );
}

/**
 * An image with a round magnifier that shows the image's own pixels, so upscaled detail can be inspected
 * without downloading. Mouse: it follows the pointer. Touch: it follows a finger, and two fingers pinch
 * the zoom. Keyboard: with the image focused, arrows move it and + / - change the zoom. The hint under it
 * speaks of the input the device has.
 */
export function ZoomLens({ src, alt, naturalWidth }: { src: string; alt: string; naturalWidth: number }) {
  const { t } = useStore();
  const { frame, spot, zoomAt, imageRect, handlers } = useLensControls(naturalWidth);
  const touch = useMediaQuery('(pointer: coarse)');
  const rect = spot ? imageRect() : null;
  return (
    <>
      <div
        ref={frame}
        className="zoom checkerboard"
        role="group"
        aria-label={t('client-tools.upscale.lensLabel')}
        tabIndex={0}
        {...handlers}
        data-testid="zoom-lens"
      >
        <img src={src} alt={alt} draggable={false} />
        {spot && rect ? (
          <Lens
            src={src}
            x={spot.fx * rect.width}
            y={spot.fy * rect.height}
            width={rect.width}
            zoom={zoomAt(rect.width)}
          />
        ) : null}
      </div>
      <p className="field__help" data-testid="lens-hint">
        {t(touch ? 'client-tools.upscale.lensHintTouch' : 'client-tools.upscale.lensHint')}
      </p>
    </>
  );
}

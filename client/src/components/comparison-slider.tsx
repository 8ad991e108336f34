import { useRef, useState, type CSSProperties, type PointerEvent } from 'react';
import { pointerPosition, sliderKeyPosition } from './slider-keys';
import './comparison-slider.css';

interface ComparisonSliderProps {
  before: string;
  after: string;
  beforeLabel: string;
  afterLabel: string;
  label: string;
  /** Width / height of the images, so the frame keeps their shape. */
  aspect: number;
  /** A colour to show behind transparent pixels instead of the checkerboard. */
  backdrop?: string | null;
  /**
   * Other widths of both images (`srcset` with w descriptors) and the width they are shown at (`sizes`), so a 2x
   * screen gets twice the pixels and a 1x screen does not pay for them; `lazy` defers them until near the viewport.
   */
  responsive?: { beforeSrcSet: string; afterSrcSet: string; sizes: string; lazy?: boolean };
}

/**
 * Before/after comparison: the "after" image fills the frame and the "before" image covers it up to the
 * divider. The divider follows a pointer drag anywhere on the frame and the keyboard (arrows, Page
 * Up/Down, Home, End) on its handle, which is an ARIA slider.
 */
export function ComparisonSlider({
  before,
  after,
  beforeLabel,
  afterLabel,
  label,
  aspect,
  backdrop,
  responsive,
}: ComparisonSliderProps) {
  const [position, setPosition] = useState(50);
  const frame = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);

  const moveTo = (clientX: number) => {
    const rect = frame.current?.getBoundingClientRect();
    if (rect) setPosition(pointerPosition(clientX, rect.left, rect.width));
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    dragging.current = true;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    moveTo(e.clientX);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) moveTo(e.clientX);
  };
  const stop = () => {
    dragging.current = false;
  };
  const loading = responsive?.lazy ? ({ loading: 'lazy', fetchPriority: 'low' } as const) : {};

  return (
    <div
      ref={frame}
      className={`compare${backdrop ? '' : ' checkerboard'}`}
      style={
        {
          aspectRatio: String(aspect),
          '--compare-aspect': String(aspect),
          backgroundColor: backdrop ?? undefined,
        } as CSSProperties
      }
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={stop}
      onPointerCancel={stop}
      data-testid="compare"
    >
      {/*
        The frame has the result's shape at any size (see comparison-slider.css), so the checkerboard (or the chosen
        backdrop) behind it shows only through transparent pixels: an opaque result covers it, with no band around.
      */}
      <img
        className="compare__img"
        src={after}
        srcSet={responsive?.afterSrcSet}
        sizes={responsive?.sizes}
        {...loading}
        decoding="async"
        alt={afterLabel}
        draggable={false}
        data-testid="compare-after"
      />
      <img
        className="compare__img compare__before"
        src={before}
        srcSet={responsive?.beforeSrcSet}
        sizes={responsive?.sizes}
        {...loading}
        decoding="async"
        alt={beforeLabel}
        draggable={false}
        style={{ clipPath: `inset(0 ${100 - position}% 0 0)` }}
      />
      <span className="compare__tag compare__tag--before" aria-hidden="true">
        {beforeLabel}
      </span>
      <span className="compare__tag compare__tag--after" aria-hidden="true">
        {afterLabel}
      </span>
      <div className="compare__divider" style={{ left: `${position}%` }}>
        <div
          className="compare__handle"
          role="slider"
          tabIndex={0}
          aria-label={label}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(position)}
          aria-valuetext={`${Math.round(position)}%`}
          onKeyDown={(e) => {
            const next = sliderKeyPosition(position, e.key);
            if (next !== null) {
              e.preventDefault();
              setPosition(next);
            }
          }}
        />
      </div>
    </div>
  );
}

import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';

/** Zoom limits over the image as shown; the default is at least 2x and at least the image's own pixels. */
const MIN_ZOOM = 1.5;
const MAX_ZOOM = 12;
/** Keyboard steps: a twentieth of the image per arrow press, and 25% more or less zoom per +/-. */
const KEY_STEP = 0.05;
const ZOOM_STEP = 1.25;

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** Where the lens is over the image (fractions 0..1 of it), or null when hidden. */
export type LensSpot = { fx: number; fy: number };

/**
 * The zoom lens's input: a mouse moves it, a finger drags it and two fingers pinch its zoom, and with the image
 * focused the arrow keys move it and + / - change the zoom. `frame` goes on the element around the image.
 */
export function useLensControls(naturalWidth: number) {
  const frame = useRef<HTMLDivElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const pinch = useRef<{ distance: number; zoom: number } | null>(null);
  const [spot, setSpot] = useState<LensSpot | null>(null);
  const [zoom, setZoom] = useState<number | null>(null);

  const imageRect = () => frame.current?.querySelector('img')?.getBoundingClientRect() ?? null;
  const baseZoom = (width: number) => Math.max(2, naturalWidth / width);

  const place = (clientX: number, clientY: number) => {
    const rect = imageRect();
    if (!rect) return;
    const fx = (clientX - rect.left) / rect.width;
    const fy = (clientY - rect.top) / rect.height;
    setSpot(fx < 0 || fy < 0 || fx > 1 || fy > 1 ? null : { fx, fy });
  };

  const spread = () => {
    const [a, b] = [...pointers.current.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (e.pointerType !== 'mouse') {
      try {
        e.currentTarget.setPointerCapture?.(e.pointerId);
      } catch {
        // The pointer ended before it could be captured; its events still arrive while over the image.
      }
    }
    const rect = imageRect();
    if (pointers.current.size === 2 && rect) pinch.current = { distance: spread(), zoom: zoom ?? baseZoom(rect.width) };
    else place(e.clientX, e.clientY);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (e.pointerType === 'mouse') {
      place(e.clientX, e.clientY);
      return;
    }
    if (!pointers.current.has(e.pointerId)) return;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pinch.current && pointers.current.size === 2) {
      const distance = spread();
      if (pinch.current.distance > 0)
        setZoom(clamp((pinch.current.zoom * distance) / pinch.current.distance, MIN_ZOOM, MAX_ZOOM));
    } else {
      place(e.clientX, e.clientY);
    }
  };
  const onPointerEnd = (e: PointerEvent<HTMLDivElement>) => {
    pointers.current.delete(e.pointerId);
    if (pointers.current.size < 2) pinch.current = null;
    // A finger lifted leaves the lens where it was, so the detail can be looked at; the mouse hides it.
    if (e.pointerType === 'mouse' && e.type === 'pointerleave') setSpot(null);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const rect = imageRect();
    if (!rect) return;
    const current = spot ?? { fx: 0.5, fy: 0.5 };
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-KEY_STEP, 0],
      ArrowRight: [KEY_STEP, 0],
      ArrowUp: [0, -KEY_STEP],
      ArrowDown: [0, KEY_STEP],
    };
    const move = moves[e.key];
    if (move) {
      setSpot({ fx: clamp(current.fx + move[0], 0, 1), fy: clamp(current.fy + move[1], 0, 1) });
    } else if (e.key === '+' || e.key === '=' || e.key === '-') {
      const now = zoom ?? baseZoom(rect.width);
      setZoom(clamp(e.key === '-' ? now / ZOOM_STEP : now * ZOOM_STEP, MIN_ZOOM, MAX_ZOOM));
      setSpot(current);
    } else if (e.key === 'Escape') {
      setSpot(null);
      return;
    } else {
      return;
    }
    e.preventDefault();
  };

  const handlers = {
    onPointerDown,
    onPointerMove,
    onPointerUp: onPointerEnd,
    onPointerCancel: onPointerEnd,
    onPointerLeave: onPointerEnd,
    onKeyDown,
    onFocus: () => setSpot((s) => s ?? { fx: 0.5, fy: 0.5 }),
    onBlur: () => setSpot(null),
  };
  return { frame, spot, zoomAt: (width: number) => zoom ?? baseZoom(width), imageRect, handlers };
}

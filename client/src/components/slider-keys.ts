/** Keyboard steps of the comparison slider, in percent of the width. */
export const SLIDER_STEP = 1;
export const SLIDER_PAGE_STEP = 10;

/**
 * The divider position after a key press (WAI-ARIA slider pattern): arrows move by 1 %, Page Up/Down by
 * 10 %, Home/End to the edges. Returns null for keys the slider does not handle.
 */
export function sliderKeyPosition(current: number, key: string): number | null {
  const clamp = (v: number) => Math.max(0, Math.min(100, v));
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(current - SLIDER_STEP);
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(current + SLIDER_STEP);
    case 'PageDown':
      return clamp(current - SLIDER_PAGE_STEP);
    case 'PageUp':
      return clamp(current + SLIDER_PAGE_STEP);
    case 'Home':
      return 0;
    case 'End':
      return 100;
    default:
      return null;
  }
}

/** The divider position (percent) for a pointer at `clientX` over a frame starting at `left` of `width`. */
export function pointerPosition(clientX: number, left: number, width: number): number {
  if (width <= 0) return 50;
  return Math.max(0, Math.min(100, ((clientX - left) / width) * 100));
}

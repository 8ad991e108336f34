/**
 * The touch-up brush without a pointer: what a key pressed on the focused touch-up canvas does. Arrow keys move
 * a brush cursor (a quarter of the brush per press, the whole brush with Shift), Space or Enter puts the brush
 * down (a dab where the cursor is; moves then paint) and lifts it again, Escape lifts it, `[` and `]` make the
 * brush smaller and larger, Ctrl+Z (Cmd+Z on a Mac) undoes the last stroke and Ctrl+Shift+Z or Ctrl+Y redoes it
 * (where the brush's owner keeps strokes to redo). Distances are in screen pixels, like
 * the size slider, so the brush moves the same on screen whatever the photo's size.
 */

export type BrushKeyAction =
  | { kind: 'move'; dx: number; dy: number }
  | { kind: 'togglePaint' }
  | { kind: 'lift' }
  | { kind: 'resize'; delta: number }
  | { kind: 'undo' }
  | { kind: 'redo' };

export interface BrushKey {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

/** How much one `[` or `]` changes the brush's diameter (screen pixels; the slider's step times two). */
export const BRUSH_SIZE_STEP = 4;

const DIRECTIONS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/** The brush action of a key for a brush `brushSize` screen pixels wide; null for keys the brush leaves alone. */
export function brushKeyAction(e: BrushKey, brushSize: number): BrushKeyAction | null {
  const command = e.ctrlKey || e.metaKey;
  const letter = e.key.toLowerCase();
  if (command && !e.altKey && !e.shiftKey && letter === 'z') return { kind: 'undo' };
  if (command && !e.altKey && ((e.shiftKey && letter === 'z') || (!e.shiftKey && letter === 'y')))
    return { kind: 'redo' };
  // Other shortcuts (Ctrl+arrows, Alt+...) stay the browser's and the screen reader's.
  if (command || e.altKey) return null;
  const direction = DIRECTIONS[e.key];
  if (direction) {
    const step = e.shiftKey ? brushSize : Math.max(1, Math.round(brushSize / 4));
    return { kind: 'move', dx: direction[0] * step, dy: direction[1] * step };
  }
  if (e.key === ' ' || e.key === 'Enter') return { kind: 'togglePaint' };
  if (e.key === 'Escape') return { kind: 'lift' };
  if (e.key === '[') return { kind: 'resize', delta: -BRUSH_SIZE_STEP };
  if (e.key === ']') return { kind: 'resize', delta: BRUSH_SIZE_STEP };
  return null;
}

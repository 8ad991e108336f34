import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { brushKeyAction } from './keyboard-brush';
import type { BrushMode, BrushStroke, MatteEdits, Point } from './matte-edits';

/** The brush's diameter range, in pixels of the preview on screen. */
export const BRUSH_MIN = 4;
export const BRUSH_MAX = 120;

/**
 * What the brush paints on: working copies `scale` x the picture's full-size pixels (strokes are kept in those),
 * painted a segment at a time, and drawn onto the on-screen canvas (the editor's cut-out, erase's painted area).
 */
export interface BrushSurface {
  readonly width: number;
  readonly height: number;
  readonly scale: number;
  /** Paints the newest part of a stroke (from point `from - 1` on) without repainting the rest. */
  paintSegment(stroke: BrushStroke, from: number): void;
  drawOn(target: HTMLCanvasElement): void;
}

/** The strokes the brush adds to, and the steps back (and forward, where kept) its keys ask for. */
export interface BrushHistory<S extends BrushSurface> {
  edits: MatteEdits;
  /** Moves on with every change to the strokes. */
  version: number;
  strokeEnded(): void;
  undo(surfaces: S | null): void;
  redo?(surfaces: S | null): void;
}

export interface BrushInputs<S extends BrushSurface> {
  canvasRef: RefObject<HTMLCanvasElement | null>;
  surfaces: S | null;
  /** The brush's view is shown (the brush paints there only). */
  touchUp: boolean;
  /** A download is being made: the strokes stay as they are meanwhile. */
  busy: boolean;
  history: BrushHistory<S>;
}

/**
 * The touch-up brush: erase or restore, its size, and the pointer and keyboard handlers of the canvas that paint
 * with it (keyboard-brush.ts says which key does what). The canvas is drawn in the browser, at once after each
 * change and at most once a frame while a stroke is under way.
 */
export function useBrush<S extends BrushSurface>({ canvasRef, surfaces, touchUp, busy, history }: BrushInputs<S>) {
  const [brush, setBrush] = useState<BrushMode>('erase');
  const [brushSize, setBrushSize] = useState(32);
  const drawing = useRef<BrushStroke | null>(null);
  const frame = useRef<number | null>(null);
  // The keyboard's brush cursor in full-size matte pixels: shown once a brush key is used, gone on blur.
  const [cursor, setCursor] = useState<Point | null>(null);
  const [keyPainting, setKeyPainting] = useState(false);
  const { edits } = history;

  const draw = () => {
    const canvas = canvasRef.current;
    if (canvas && surfaces && touchUp) surfaces.drawOn(canvas);
  };
  // The touch-up view: the cut-out over the faint photo, drawn again whenever it or the strokes change.
  useEffect(draw, [surfaces, touchUp, history.version]);

  /** Full-size matte pixels per CSS pixel of the touch-up canvas on screen. */
  const mattePerCss = (canvas: HTMLCanvasElement) =>
    canvas.width / canvas.getBoundingClientRect().width / surfaces!.scale;
  /** A pointer on the touch-up canvas in full-size matte pixels. */
  const matPoint = (e: PointerEvent<HTMLCanvasElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    const perCss = mattePerCss(e.currentTarget);
    return { x: (e.clientX - rect.left) * perCss, y: (e.clientY - rect.top) * perCss, perCss };
  };
  const begin = (surfaces: S, width: number, at: Point) => {
    drawing.current = edits.begin(brush, width, at);
    surfaces.paintSegment(drawing.current, 0);
  };
  /** Paints the newest part of the stroke under way. */
  const paintLatest = (surfaces: S, stroke: BrushStroke) => surfaces.paintSegment(stroke, stroke.points.length - 1);

  const onPointerDown = (e: PointerEvent<HTMLCanvasElement>) => {
    if (!touchUp || !surfaces || busy) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    const { x, y, perCss } = matPoint(e);
    // The size slider is in screen pixels: the same brush on screen whatever the photo's size.
    begin(surfaces, brushSize * perCss, { x, y });
    draw();
  };
  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const stroke = drawing.current;
    if (!stroke || !surfaces) return;
    const { x, y } = matPoint(e);
    edits.extend({ x, y });
    paintLatest(surfaces, stroke);
    // One redraw per frame however fast the pointer reports.
    frame.current ??= requestAnimationFrame(() => {
      frame.current = null;
      draw();
    });
  };
  const onPointerEnd = () => {
    setKeyPainting(false);
    if (!drawing.current) return;
    drawing.current = null;
    history.strokeEnded();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLCanvasElement>) => {
    if (!touchUp || !surfaces || busy) return;
    const action = brushKeyAction(e, brushSize);
    if (!action) return;
    e.preventDefault(); // Space and the arrows would scroll the page
    const perCss = mattePerCss(e.currentTarget);
    const at = cursor ?? { x: surfaces.width / 2, y: surfaces.height / 2 };
    setCursor(at);
    if (action.kind === 'move') {
      const next = {
        x: Math.min(surfaces.width, Math.max(0, at.x + action.dx * perCss)),
        y: Math.min(surfaces.height, Math.max(0, at.y + action.dy * perCss)),
      };
      setCursor(next);
      const stroke = drawing.current;
      if (stroke && edits.extend(next)) {
        paintLatest(surfaces, stroke);
        draw();
      }
    } else if (action.kind === 'togglePaint' && !drawing.current) {
      begin(surfaces, brushSize * perCss, at);
      setKeyPainting(true);
      draw();
    } else if (action.kind === 'togglePaint' || action.kind === 'lift') {
      onPointerEnd();
    } else if (action.kind === 'resize') {
      setBrushSize((size) => Math.min(BRUSH_MAX, Math.max(BRUSH_MIN, size + action.delta)));
    } else {
      onPointerEnd();
      if (action.kind === 'redo') history.redo?.(surfaces);
      else history.undo(surfaces);
    }
  };
  const onBlur = () => {
    onPointerEnd();
    setCursor(null);
  };

  return {
    brush,
    setBrush,
    brushSize,
    setBrushSize,
    cursor,
    keyPainting,
    handlers: {
      onPointerDown,
      onPointerMove,
      onPointerUp: onPointerEnd,
      onPointerCancel: onPointerEnd,
      onKeyDown,
      onBlur,
    },
  };
}

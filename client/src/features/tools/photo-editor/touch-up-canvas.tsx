import type { RefObject } from 'react';
import { useT } from '../../../stores';
import type { Point } from './matte-edits';
import type { CutoutSurfaces } from './preview-canvas';
import type { useBrush } from './use-brush';

/**
 * The touch-up view: the canvas the brush paints on (pointer or keyboard) and, once a brush key is used, the ring
 * that shows where the keyboard's next dab goes.
 */
export function TouchUpCanvas({
  canvasRef,
  surfaces,
  brush,
}: {
  canvasRef: RefObject<HTMLCanvasElement | null>;
  surfaces: CutoutSurfaces;
  brush: ReturnType<typeof useBrush>;
}) {
  const t = useT();
  return (
    <>
      <canvas
        ref={canvasRef}
        // The checkerboard sits on the picture itself: it shows where the result is transparent.
        className="photo-editor__canvas checkerboard photo-editor__canvas--brush"
        role="img"
        aria-label={t('client-tools.editor.touchUpCanvas')}
        data-testid="photo-preview"
        data-mode="touchUp"
        tabIndex={0}
        aria-describedby="photo-editor-keys"
        {...brush.handlers}
      />
      {brush.cursor && canvasRef.current ? (
        <BrushCursor canvas={canvasRef.current} at={brush.cursor} size={brush.brushSize} scale={surfaces.scale} />
      ) : null}
    </>
  );
}

/**
 * The keyboard's brush: a ring over the touch-up canvas where the next dab goes, as wide as the brush. An element
 * over the canvas rather than paint on it, so the canvas keeps showing only the cut-out.
 */
export function BrushCursor({
  canvas,
  at,
  size,
  scale,
}: {
  canvas: HTMLCanvasElement;
  at: Point;
  size: number;
  scale: number;
}) {
  const cssPerMatte = (canvas.getBoundingClientRect().width * scale) / canvas.width;
  return (
    <span
      className="photo-editor__brush-cursor"
      aria-hidden="true"
      data-testid="brush-cursor"
      style={{
        left: canvas.offsetLeft + at.x * cssPerMatte - size / 2,
        top: canvas.offsetTop + at.y * cssPerMatte - size / 2,
        width: size,
        height: size,
      }}
    />
  );
}

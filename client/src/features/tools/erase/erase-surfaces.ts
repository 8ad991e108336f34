import { paintStroke, type BrushStroke } from '../photo-editor/matte-edits';
import { canvasOf, context } from '../photo-editor/preview-canvas';
import type { BrushSurface } from '../photo-editor/use-brush';

/** The long side of the working copy the strokes are painted on, and of the mask sent with the photo. */
const WORK_MAX = 1024;
/** How the painted area shows over the photo. */
const TINT = 'rgb(255 40 90)';
const TINT_OPACITY = 0.55;

/**
 * The erase page's painting, drawn in the browser: the strokes on a transparent working copy of the photo's
 * shape (at most WORK_MAX px long), shown tinted over the photo, and sent as the mask (white and opaque where
 * painted, transparent elsewhere; the server takes any size of the photo's shape and the worker scales it).
 */
export class EraseSurfaces implements BrushSurface {
  readonly scale: number;
  /** The strokes (opaque where painted). */
  private readonly paint: HTMLCanvasElement;
  /** The strokes in the tint colour, for the view. */
  private readonly tint: HTMLCanvasElement;
  constructor(
    private readonly photo: HTMLImageElement,
    readonly width: number,
    readonly height: number,
  ) {
    this.scale = Math.min(1, WORK_MAX / Math.max(width, height));
    this.paint = canvasOf(width * this.scale, height * this.scale);
    this.tint = canvasOf(this.paint.width, this.paint.height);
  }

  repaint(strokes: readonly BrushStroke[]): void {
    const ctx = context(this.paint);
    ctx.clearRect(0, 0, this.paint.width, this.paint.height);
    for (const stroke of strokes) paintStroke(ctx, stroke, this.scale);
  }

  paintSegment(stroke: BrushStroke, from: number): void {
    paintStroke(context(this.paint), stroke, this.scale, Math.max(0, from - 1));
  }

  /** The photo with the painted area tinted over it, at the working copy's size. */
  drawOn(target: HTMLCanvasElement): void {
    const { width, height } = this.paint;
    this.colour(this.tint, TINT);
    target.width = width;
    target.height = height;
    const ctx = context(target);
    ctx.drawImage(this.photo, 0, 0, width, height);
    ctx.save();
    ctx.globalAlpha = TINT_OPACITY;
    ctx.drawImage(this.tint, 0, 0);
    ctx.restore();
  }

  /** The mask the API takes (`mask` field): a PNG, white and opaque where painted, transparent elsewhere. */
  maskPng(): Promise<Blob> {
    const canvas = canvasOf(this.paint.width, this.paint.height);
    this.colour(canvas, '#ffffff');
    return new Promise((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('mask not encoded'))), 'image/png'),
    );
  }

  /** `target` (the working copy's size) cleared and filled with `colour` where the strokes are. */
  private colour(target: HTMLCanvasElement, colour: string): void {
    const ctx = context(target);
    ctx.save();
    ctx.clearRect(0, 0, target.width, target.height);
    ctx.drawImage(this.paint, 0, 0);
    // Keeps the strokes' coverage (their soft edges included) and gives it one colour.
    ctx.globalCompositeOperation = 'source-in';
    ctx.fillStyle = colour;
    ctx.fillRect(0, 0, target.width, target.height);
    ctx.restore();
  }
}

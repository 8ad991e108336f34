import { paintStroke, type BrushStroke } from './matte-edits';

/**
 * The touch-up view, drawn in the browser from the job's stored cut-out (`compose_sources`: the foreground as an
 * opaque image and the matte as greyscale, full size) as the brush paints. Everything is worked on a copy at most
 * SOURCE_MAX px on its long side; the full-size matte is painted only when it is sent to the server (the layout's
 * preview and Download). The laid-out picture is never drawn here: the server renders it (photo-editor.tsx).
 */

/** The long side of the working copies of the foreground and matte. */
const SOURCE_MAX = 1024;

export function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    // Storage URLs are on another origin that allows the app's GETs (CORS): pixels stay readable.
    img.crossOrigin = 'anonymous';
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error(`could not load ${src}`));
    img.src = src;
  });
}

/** A canvas of whole pixels, at least one each way (the erase page's working copies too). */
export function canvasOf(width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width));
  canvas.height = Math.max(1, Math.round(height));
  return canvas;
}

export function context(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new Error('no 2D canvas');
  return ctx;
}

/** The cut-out's working copies: foreground, matte (with the brush's strokes) and the two joined as RGBA. */
export class CutoutSurfaces {
  /** Working copy pixels per full-size pixel. */
  readonly scale: number;
  readonly foreground: HTMLCanvasElement;
  readonly matte: HTMLCanvasElement;
  readonly cutout: HTMLCanvasElement;
  constructor(
    private readonly fgImage: HTMLImageElement,
    private readonly matteImage: HTMLImageElement,
    readonly width: number,
    readonly height: number,
  ) {
    this.scale = Math.min(1, SOURCE_MAX / Math.max(width, height));
    const w = width * this.scale;
    const h = height * this.scale;
    this.foreground = canvasOf(w, h);
    context(this.foreground).drawImage(fgImage, 0, 0, this.foreground.width, this.foreground.height);
    this.matte = canvasOf(w, h);
    this.cutout = canvasOf(w, h);
    this.repaint([]);
  }

  /** The stored matte with `strokes` painted over it, then the cut-out from it. */
  repaint(strokes: readonly BrushStroke[]): void {
    const ctx = context(this.matte);
    ctx.drawImage(this.matteImage, 0, 0, this.matte.width, this.matte.height);
    for (const stroke of strokes) paintStroke(ctx, stroke, this.scale);
    this.join();
  }

  /** Paints the newest part of a stroke (from point `from - 1` on) without repainting the rest. */
  paintSegment(stroke: BrushStroke, from: number): void {
    paintStroke(context(this.matte), stroke, this.scale, Math.max(0, from - 1));
    this.join();
  }

  /** The cut-out (foreground colours, matte as alpha), from the working copies. */
  private join(): void {
    const { width: w, height: h } = this.matte;
    const alpha = context(this.matte).getImageData(0, 0, w, h).data;
    const out = context(this.foreground).getImageData(0, 0, w, h);
    const px = out.data;
    for (let i = 3; i < px.length; i += 4) px[i] = alpha[i - 3]!;
    context(this.cutout).putImageData(out, 0, 0);
  }

  /** The touch-up view on the on-screen canvas (the brush's surface, use-brush.ts). */
  drawOn(target: HTMLCanvasElement): void {
    drawTouchUp(target, this);
  }

  /** The full-size matte with `strokes`, as the PNG compose takes (`matte` field). */
  async fullMatte(strokes: readonly BrushStroke[]): Promise<Blob> {
    const canvas = this.fullMatteCanvas(strokes);
    return new Promise((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('matte not encoded'))), 'image/png'),
    );
  }

  /** The stored matte at full size with `strokes` painted over it. */
  private fullMatteCanvas(strokes: readonly BrushStroke[]): HTMLCanvasElement {
    const canvas = canvasOf(this.width, this.height);
    const ctx = context(canvas);
    ctx.drawImage(this.matteImage, 0, 0);
    for (const stroke of strokes) paintStroke(ctx, stroke);
    return canvas;
  }
}

/**
 * The touch-up view: the whole photo faintly (what restoring brings back) under the cut-out, at the working
 * copy's size, so a pointer maps to the matte by one scale.
 */
function drawTouchUp(target: HTMLCanvasElement, surfaces: CutoutSurfaces): void {
  target.width = surfaces.cutout.width;
  target.height = surfaces.cutout.height;
  const ctx = context(target);
  ctx.clearRect(0, 0, target.width, target.height);
  ctx.save();
  ctx.globalAlpha = 0.3;
  ctx.drawImage(surfaces.foreground, 0, 0);
  ctx.restore();
  ctx.drawImage(surfaces.cutout, 0, 0);
}

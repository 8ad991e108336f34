import { planLayout, subjectBoxOf, type Box, type LayoutPlan, type ProductPhotoLayout } from '@imagestudio/contracts';
import { paintStroke, type BrushStroke } from './matte-edits';

/**
 * The editor's live preview, drawn in the browser from the job's stored cut-out (`compose_sources`: the
 * foreground as an opaque image and the matte as greyscale, full size) with no request per change. Everything
 * is worked on a copy at most PREVIEW_SOURCE_MAX px on its long side; the full-size matte is painted only when
 * Download sends it. The layout comes from the contracts' `planLayout`, the geometry `compose` renders with, and
 * the subject's box from the contracts' `subjectBoxOf` over the full-size matte, the one `compose` crops by; the
 * pixels are a close likeness (the browser's blur and resampling, not libvips').
 */

/** The long side of the working copies of the foreground and matte. */
export const PREVIEW_SOURCE_MAX = 1024;
/** The long side of the preview canvas. */
export const PREVIEW_CANVAS_MAX = 800;

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

function canvasOf(width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width));
  canvas.height = Math.max(1, Math.round(height));
  return canvas;
}

function context(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
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
  /** The strokes painted over the stored matte now, oldest first (the one being drawn last). */
  private painted: BrushStroke[] = [];
  /** The subject's box of the matte as painted; undefined when a stroke changed the matte since it was measured. */
  private box: Box | null | undefined = undefined;

  constructor(
    private readonly fgImage: HTMLImageElement,
    private readonly matteImage: HTMLImageElement,
    readonly width: number,
    readonly height: number,
  ) {
    this.scale = Math.min(1, PREVIEW_SOURCE_MAX / Math.max(width, height));
    const w = width * this.scale;
    const h = height * this.scale;
    this.foreground = canvasOf(w, h);
    context(this.foreground).drawImage(fgImage, 0, 0, this.foreground.width, this.foreground.height);
    this.matte = canvasOf(w, h);
    this.cutout = canvasOf(w, h);
    this.repaint([]);
  }

  /** The stored matte with `strokes` painted over it, then the cut-out and subject box from it. */
  repaint(strokes: readonly BrushStroke[]): void {
    const ctx = context(this.matte);
    ctx.drawImage(this.matteImage, 0, 0, this.matte.width, this.matte.height);
    for (const stroke of strokes) paintStroke(ctx, stroke, this.scale);
    this.painted = [...strokes];
    this.box = undefined;
    this.join();
  }

  /** Paints the newest part of a stroke (from point `from - 1` on) without repainting the rest. */
  paintSegment(stroke: BrushStroke, from: number): void {
    paintStroke(context(this.matte), stroke, this.scale, Math.max(0, from - 1));
    if (this.painted.at(-1) !== stroke) this.painted.push(stroke);
    this.box = undefined;
    this.join();
  }

  /**
   * The subject's box in full-size pixels (null: nothing left in the matte): the engine's rule over the full-size
   * matte with the strokes, i.e. over the very pixels Download sends (or the stored matte, unedited), so the
   * preview crops exactly as the file. Measured when the layout is drawn after a change, not while the brush
   * paints (the touch-up view shows no crop).
   */
  get subjectBox(): Box | null {
    if (this.box === undefined) {
      const { width, height } = this;
      const pixels = context(this.fullMatteCanvas(this.painted)).getImageData(0, 0, width, height).data;
      this.box = subjectBoxOf(pixels, width, height, 4);
    }
    return this.box;
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

export interface PreviewExtras {
  /** The chosen background image (the `image` swatch). */
  backgroundImage: HTMLImageElement | null;
  /** JPEG has no alpha: transparency is shown flattened on white, as the file will be. */
  flattenOnWhite: boolean;
}

/** Draws the laid-out picture on `target` (sized to the canvas, PREVIEW_CANVAS_MAX at most); returns the plan. */
export function drawLayout(
  target: HTMLCanvasElement,
  surfaces: CutoutSurfaces,
  layout: ProductPhotoLayout,
  extras: PreviewExtras,
): LayoutPlan {
  const plan = planLayout({ width: surfaces.width, height: surfaces.height }, surfaces.subjectBox, layout);
  const k = Math.min(1, PREVIEW_CANVAS_MAX / Math.max(plan.canvas.width, plan.canvas.height));
  target.width = Math.max(1, Math.round(plan.canvas.width * k));
  target.height = Math.max(1, Math.round(plan.canvas.height * k));
  const ctx = context(target);
  ctx.clearRect(0, 0, target.width, target.height);
  const p = surfaces.scale;
  const { source, target: box } = plan;
  // Where the whole input lands (for the blurred background): the content's scale and offset.
  const sx = box.width / source.width;
  const sy = box.height / source.height;

  if (extras.flattenOnWhite) fill(ctx, target, '#ffffff');
  const bg = layout.background;
  if (bg.kind === 'color') {
    const [r, g, b, a] = bg.rgba;
    fill(ctx, target, `rgba(${r}, ${g}, ${b}, ${a / 255})`);
  } else if (bg.kind === 'image' && extras.backgroundImage) {
    const img = extras.backgroundImage;
    const cover = Math.max(target.width / img.naturalWidth, target.height / img.naturalHeight);
    const w = img.naturalWidth * cover;
    const h = img.naturalHeight * cover;
    ctx.drawImage(img, (target.width - w) / 2, (target.height - h) / 2, w, h);
  } else if (bg.kind === 'blur') {
    // The radius is in px at a 1000 px canvas, scaled with the canvas's long side (as the engine does).
    const sigma = (bg.radius * Math.max(target.width, target.height)) / 1000;
    const w = surfaces.width * sx * k;
    const h = surfaces.height * sy * k;
    // Drawn unblurred on a copy larger than the canvas by the blur's reach, then blurred onto it once, so the
    // edges blur into photo, not into nothing.
    const pad = Math.ceil(3 * sigma);
    const photo = canvasOf(target.width + 2 * pad, target.height + 2 * pad);
    const pctx = context(photo);
    const x = (box.left - source.left * sx) * k + pad;
    const y = (box.top - source.top * sy) * k + pad;
    // The photo and its mirror images around it, as the engine extends the background past the input's edges.
    for (const i of [-1, 0, 1])
      for (const j of [-1, 0, 1]) {
        pctx.save();
        pctx.translate(x + i * w + (i === 0 ? 0 : w / 2), y + j * h + (j === 0 ? 0 : h / 2));
        pctx.scale(i === 0 ? 1 : -1, j === 0 ? 1 : -1);
        pctx.drawImage(surfaces.foreground, i === 0 ? 0 : -w / 2, j === 0 ? 0 : -h / 2, w, h);
        pctx.restore();
      }
    ctx.save();
    ctx.filter = `blur(${sigma}px)`;
    ctx.drawImage(photo, -pad, -pad);
    ctx.restore();
  }

  const content = (into: CanvasRenderingContext2D, dx: number, dy: number) =>
    into.drawImage(
      surfaces.cutout,
      source.left * p,
      source.top * p,
      source.width * p,
      source.height * p,
      dx,
      dy,
      box.width * k,
      box.height * k,
    );

  if (layout.shadow.kind !== 'none' && layout.shadow.opacity > 0) {
    // The drop shadow: the silhouette, offset down and right by 2% and 3.5% of the subject's long side and
    // blurred by 2.5% of it (the engine's proportions).
    const subject = plan.subjectBox ?? box;
    const long = Math.max(subject.width, subject.height) * k;
    const silhouette = canvasOf(box.width * k, box.height * k);
    const sctx = context(silhouette);
    content(sctx, 0, 0);
    sctx.globalCompositeOperation = 'source-in';
    fill(sctx, silhouette, '#000000');
    ctx.save();
    ctx.filter = `blur(${Math.max(0.5, 0.025 * long)}px)`;
    ctx.globalAlpha = layout.shadow.opacity;
    ctx.drawImage(silhouette, box.left * k + 0.02 * long, box.top * k + 0.035 * long);
    ctx.restore();
  }
  content(ctx, box.left * k, box.top * k);
  return plan;
}

/**
 * The touch-up view: the whole photo faintly (what restoring brings back) under the cut-out, at the working
 * copy's size, so a pointer maps to the matte by one scale.
 */
export function drawTouchUp(target: HTMLCanvasElement, surfaces: CutoutSurfaces): void {
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

function fill(ctx: CanvasRenderingContext2D, canvas: HTMLCanvasElement, style: string): void {
  ctx.save();
  ctx.fillStyle = style;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.restore();
}

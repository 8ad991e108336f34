/**
 * The touch-up brush's edits of a matte as data: a list of strokes in matte pixels, each erasing (alpha 0) or
 * restoring (alpha 255) along its points with a round brush. The matte on screen and the one sent to compose are
 * the stored matte with these strokes painted over it in order, so undo is dropping the last stroke and painting
 * the rest again (no full-size snapshots kept: a 12 MP matte would cost 48 MB a step).
 */

import type { MatteDraftStroke } from '@imagestudio/contracts';

export type BrushMode = 'erase' | 'restore';

export interface Point {
  x: number;
  y: number;
}

export interface BrushStroke {
  mode: BrushMode;
  /** The brush's diameter in matte pixels. */
  size: number;
  points: Point[];
}

/**
 * A point or size as it is kept: to a tenth of a matte pixel (invisible on the matte), so the draft saved on the
 * server (`[x, y]` pairs of short numbers, matte-draft.ts) holds exactly what was painted, and paints it again alike.
 */
const tenth = (v: number) => Math.round(v * 10) / 10;
const kept = (p: Point): Point => ({ x: tenth(p.x), y: tenth(p.y) });

/** The strokes as the draft stores them. */
export function toDraftStrokes(strokes: readonly BrushStroke[]): MatteDraftStroke[] {
  return strokes.map((s) => ({
    mode: s.mode,
    size: s.size,
    points: s.points.map((p) => [p.x, p.y] as [number, number]),
  }));
}

/** The draft's strokes as the brush keeps them. */
export function fromDraftStrokes(strokes: readonly MatteDraftStroke[]): BrushStroke[] {
  return strokes.map((s) => ({ mode: s.mode, size: s.size, points: s.points.map(([x, y]) => ({ x, y })) }));
}

export class MatteEdits {
  private done: BrushStroke[] = [];
  private open: BrushStroke | null = null;
  /** Strokes taken back by undo, newest last; a new stroke forgets them. */
  private undone: BrushStroke[] = [];

  /** The finished strokes, oldest first, then the one being drawn. */
  get strokes(): readonly BrushStroke[] {
    return this.open ? [...this.done, this.open] : this.done;
  }

  get canUndo(): boolean {
    return this.done.length > 0 && this.open === null;
  }

  get canRedo(): boolean {
    return this.undone.length > 0 && this.open === null;
  }

  get edited(): boolean {
    return this.strokes.length > 0;
  }

  /** Starts a stroke at `point` (a pointer went down on the picture). */
  begin(mode: BrushMode, size: number, point: Point): BrushStroke {
    this.open = { mode, size: Math.max(1, tenth(size)), points: [kept(point)] };
    this.undone = [];
    return this.open;
  }

  /** Adds a point to the stroke being drawn; returns the segment to paint (from the previous point), if any. */
  extend(point: Point): [Point, Point] | null {
    const stroke = this.open;
    if (!stroke) return null;
    const last = stroke.points[stroke.points.length - 1]!;
    const next = kept(point);
    stroke.points.push(next);
    return [last, next];
  }

  /** Ends the stroke being drawn (pointer up or cancelled); it becomes one step of undo. */
  end(): void {
    if (!this.open) return;
    this.done.push(this.open);
    this.open = null;
  }

  /** Drops the last finished stroke; returns whether there was one. */
  undo(): boolean {
    if (!this.canUndo) return false;
    this.undone.push(this.done.pop()!);
    return true;
  }

  /** Paints again the stroke undo took last; returns whether there was one. */
  redo(): boolean {
    if (!this.canRedo) return false;
    this.done.push(this.undone.pop()!);
    return true;
  }

  /** Back to the stored matte. */
  clear(): void {
    this.done = [];
    this.open = null;
    this.undone = [];
  }

  /** Takes up saved strokes (the draft) as the finished ones, each a step of undo as when it was painted. */
  restore(strokes: readonly BrushStroke[]): void {
    this.done = [...strokes];
    this.open = null;
    this.undone = [];
  }
}

/** The brush's colour on a greyscale matte: erasing paints black (transparent), restoring white (opaque). */
export function brushColor(mode: BrushMode): string {
  return mode === 'erase' ? '#000000' : '#ffffff';
}

/** What a 2D context needs for painting strokes (a canvas's, or a test double). */
export type StrokeContext = Pick<
  CanvasRenderingContext2D,
  'beginPath' | 'moveTo' | 'lineTo' | 'stroke' | 'arc' | 'fill' | 'save' | 'restore'
> & {
  strokeStyle: CanvasRenderingContext2D['strokeStyle'];
  fillStyle: CanvasRenderingContext2D['fillStyle'];
  lineWidth: number;
  lineCap: CanvasLineCap;
  lineJoin: CanvasLineJoin;
};

/**
 * Paints strokes (or one segment of a stroke) onto a matte context drawn at `scale` x the matte's pixels: a
 * round dot for a single point, round-capped lines between points.
 */
export function paintStroke(ctx: StrokeContext, stroke: BrushStroke, scale = 1, from = 0): void {
  const points = stroke.points.slice(from);
  if (points.length === 0) return;
  ctx.save();
  ctx.strokeStyle = ctx.fillStyle = brushColor(stroke.mode);
  ctx.lineWidth = stroke.size * scale;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.beginPath();
  if (points.length === 1) {
    const p = points[0]!;
    ctx.arc(p.x * scale, p.y * scale, (stroke.size * scale) / 2, 0, Math.PI * 2);
    ctx.fill();
  } else {
    ctx.moveTo(points[0]!.x * scale, points[0]!.y * scale);
    for (const p of points.slice(1)) ctx.lineTo(p.x * scale, p.y * scale);
    ctx.stroke();
  }
  ctx.restore();
}

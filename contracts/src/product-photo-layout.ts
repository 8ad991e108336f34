import { CANVAS_SIDE_MAX, type MarginSide, type ProductPhotoLayout } from './product-photo';
import { NO_CUT_EDGES, type CutEdges } from './subject-box';

/** A rectangle in pixels. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The geometry of a product photo, pure arithmetic: which part of the input is drawn (`source`), where it lands
 * on the canvas (`target`, scaled by target/source), the canvas, and the subject's box in the result. It lives in
 * contracts (not beside the runtime's sharp engine) so that the browser editor's live preview lays out exactly
 * what `compose` renders.
 */
export interface LayoutPlan {
  canvas: { width: number; height: number };
  /** The input rectangle drawn: the subject's box with crop_to_subject (when there is a subject), else the input. */
  source: Box;
  /** Where `source` lands on the canvas (integers; `source` is resized to exactly this size). */
  target: Box;
  /** The subject's box in result pixels, or null when the matte holds no subject. */
  subjectBox: Box | null;
  /**
   * The sides of the subject's box that the photo's frame cuts (whether or not the frame rule placed them on the
   * canvas edge): no shadow is drawn under or beside them.
   */
  cutEdges: CutEdges;
}

interface Size {
  width: number;
  height: number;
}

const NO_MARGIN: ProductPhotoLayout['margin'] = {
  top: { value: 0, unit: 'px' },
  right: { value: 0, unit: 'px' },
  bottom: { value: 0, unit: 'px' },
  left: { value: 0, unit: 'px' },
};

/**
 * Lays out an input of `input` size whose subject is `subject`:
 * - the content is the subject's box (crop_to_subject) or the whole input;
 * - margins are px, or % of the canvas width (left, right) and height (top, bottom), and apply only to a crop or
 *   to an `aspect` or `size` canvas: canvas `original` without a crop keeps the input's size;
 * - canvas `original` is the content plus margins at scale 1, `aspect` the smallest canvas of that aspect holding
 *   them, `size` a fixed canvas where the content is scaled (up or down) to fit inside the margins;
 * - max_side caps the canvas's long side (scaling down, never up), as does CANVAS_SIDE_MAX beyond the input's size;
 * - the content sits in the free space at `position` (fractions), or `original`: where the subject sat in the input;
 * - the frame rule (`keepCutEdges`): a side of the subject cut by the photo's frame (`cut`, from `cutEdgesOf` on
 *   the full-size matte) has no margin and sits on the canvas edge, the other axis placed as asked. A subject cut on
 *   both sides of an axis fills it where the canvas allows, else it is centred along it.
 */
export function planLayout(
  input: Size,
  subject: Box | null,
  layout: ProductPhotoLayout,
  cut: CutEdges = NO_CUT_EDGES,
): LayoutPlan {
  const cropped = layout.cropToSubject && subject !== null;
  const source: Box = cropped ? { ...subject } : { left: 0, top: 0, width: input.width, height: input.height };
  const cutEdges = subject === null ? NO_CUT_EDGES : cut;
  // The subject touches the photo's edge on a cut side, so the content (its box, or the whole photo) ends there too.
  const frame = layout.keepCutEdges === true ? cutEdges : NO_CUT_EDGES;
  // A margin is space around a crop, or inside a canvas of a chosen aspect or size: the original canvas of the
  // whole input is the input's own size, whatever margin the form holds.
  const asked = cropped || layout.canvas.kind !== 'original' ? layout.margin : NO_MARGIN;
  const top = frame.top ? NO_MARGIN.top : asked.top;
  const right = frame.right ? NO_MARGIN.right : asked.right;
  const bottom = frame.bottom ? NO_MARGIN.bottom : asked.bottom;
  const left = frame.left ? NO_MARGIN.left : asked.left;
  const cap = layout.maxSide ?? Math.max(CANVAS_SIDE_MAX, input.width, input.height);
  // Margin sums along each axis: px, and the share of the canvas side.
  const px = (a: MarginSide, b: MarginSide) => pxOf(a) + pxOf(b);
  const share = (a: MarginSide, b: MarginSide) => shareOf(a) + shareOf(b);
  const h = { px: px(left, right), share: share(left, right) };
  const v = { px: px(top, bottom), share: share(top, bottom) };
  /** The canvas side that holds `content` px of content plus the margins of `axis`. */
  const sideFor = (content: number, axis: typeof h) => (content + axis.px) / (1 - axis.share);
  /** The largest scale at which the content plus margins fits a canvas of `side` px along `axis`. */
  const scaleFor = (side: number, contentSide: number, axis: typeof h) =>
    (side * (1 - axis.share) - axis.px) / contentSide;

  let canvas: Size;
  let maxScale: number;
  /** The canvas sides the % margins are taken of (the unrounded ones of an `original` canvas). */
  let basis: Size;
  const c = layout.canvas;
  if (c.kind === 'original') {
    const s = Math.min(1, scaleFor(cap, source.width, h), scaleFor(cap, source.height, v));
    const tw = Math.max(1, Math.round(source.width * s));
    const th = Math.max(1, Math.round(source.height * s));
    // The canvas is built from the rounded content so that at scale 1 nothing is resampled.
    const cw = Math.min(cap, tw + marginPx(left, right, sideFor(tw, h)));
    const ch = Math.min(cap, th + marginPx(top, bottom, sideFor(th, v)));
    canvas = { width: cw, height: ch };
    basis = { width: sideFor(tw, h), height: sideFor(th, v) };
    maxScale = s;
  } else if (c.kind === 'aspect') {
    const aspect = c.width / c.height;
    let ch = Math.max(sideFor(source.height, v), sideFor(source.width, h) / aspect);
    let cw = ch * aspect;
    if (Math.max(cw, ch) > cap) {
      cw = aspect >= 1 ? cap : cap * aspect;
      ch = cw / aspect;
      canvas = { width: Math.max(1, Math.round(cw)), height: Math.max(1, Math.round(ch)) };
    } else {
      // At scale 1 the rounded canvas must still hold the content and its rounded margins: grow it by a pixel
      // until it does, so nothing is resampled.
      const fits = (size: Size) =>
        size.width - marginPx(left, right, size.width) >= source.width &&
        size.height - marginPx(top, bottom, size.height) >= source.height;
      const sized = (side: number): Size =>
        aspect >= 1
          ? { width: side, height: Math.round(side / aspect) }
          : { width: Math.round(side * aspect), height: side };
      let side = Math.round(Math.max(cw, ch));
      while (!fits(sized(side)) && side < cap) side++;
      canvas = sized(side);
    }
    basis = canvas;
    maxScale = 1;
  } else {
    const s = Math.min(1, cap / Math.max(c.width, c.height));
    canvas = { width: Math.max(1, Math.round(c.width * s)), height: Math.max(1, Math.round(c.height * s)) };
    basis = canvas;
    maxScale = Infinity;
  }

  const mL = Math.round(pxOf(left) + shareOf(left) * basis.width);
  const mR = Math.round(pxOf(right) + shareOf(right) * basis.width);
  const mT = Math.round(pxOf(top) + shareOf(top) * basis.height);
  const mB = Math.round(pxOf(bottom) + shareOf(bottom) * basis.height);
  const innerW = Math.max(1, canvas.width - mL - mR);
  const innerH = Math.max(1, canvas.height - mT - mB);
  const s = Math.min(maxScale, innerW / source.width, innerH / source.height);
  const tw = Math.min(innerW, Math.max(1, Math.round(source.width * s)));
  const th = Math.min(innerH, Math.max(1, Math.round(source.height * s)));

  let fx: number;
  let fy: number;
  if (layout.position === 'original') {
    // Where the content sat in the input's free space (centred when it filled the input).
    fx = input.width > source.width ? source.left / (input.width - source.width) : 0.5;
    fy = input.height > source.height ? source.top / (input.height - source.height) : 0.5;
  } else {
    fx = layout.position.x;
    fy = layout.position.y;
  }
  // A cut side goes to its canvas edge; cut on both sides, the content fills the axis or is centred on it.
  if (frame.left || frame.right) fx = frame.left && frame.right ? 0.5 : frame.left ? 0 : 1;
  if (frame.top || frame.bottom) fy = frame.top && frame.bottom ? 0.5 : frame.top ? 0 : 1;
  const target: Box = {
    left: Math.min(canvas.width - tw, Math.max(0, mL + Math.round(fx * (innerW - tw)))),
    top: Math.min(canvas.height - th, Math.max(0, mT + Math.round(fy * (innerH - th)))),
    width: tw,
    height: th,
  };
  return { canvas, source, target, subjectBox: subject && mapBox(subject, source, target), cutEdges };
}

/** `box` (input pixels) in result pixels, for content `source` drawn at `target`. */
export function mapBox(box: Box, source: Box, target: Box): Box {
  const sx = target.width / source.width;
  const sy = target.height / source.height;
  const x0 = Math.round(target.left + (box.left - source.left) * sx);
  const y0 = Math.round(target.top + (box.top - source.top) * sy);
  const x1 = Math.round(target.left + (box.left + box.width - source.left) * sx);
  const y1 = Math.round(target.top + (box.top + box.height - source.top) * sy);
  return { left: x0, top: y0, width: x1 - x0, height: y1 - y0 };
}

function pxOf(m: MarginSide): number {
  return m.unit === 'px' ? m.value : 0;
}

function shareOf(m: MarginSide): number {
  return m.unit === '%' ? m.value / 100 : 0;
}

/** The two margins of an axis, rounded each, on a canvas side of `side` px. */
function marginPx(a: MarginSide, b: MarginSide, side: number): number {
  return Math.round(pxOf(a) + shareOf(a) * side) + Math.round(pxOf(b) + shareOf(b) * side);
}

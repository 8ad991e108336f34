import type { Length, RemoveBgRequest } from './removebg-fields';

/**
 * remove.bg's fields as our remove-background tool's own (the product-photo options, docs/product-photos.md):
 * the adapter adds no processing of its own, it only says the same request in the tool's words.
 *
 * - `crop` -> `crop_to_subject`, `crop_margin` -> `margin` (CSS order, px or %; a % of the subject's size made a %
 *   of the canvas side, see cropMargins);
 * - `scale` (the subject's share of the image) -> a canvas of the input's size, the subject cropped and fitted
 *   inside an even % margin of (100 - scale) / 2 per side; `position` -> `position`;
 * - `bg_color` -> `background_color`, `bg_image_file` / `bg_image_url` -> `background_image`;
 * - `add_shadow` -> `shadow=drop`; `format` -> `output_format` (`jpg` = `jpeg`; `zip` is built from a PNG);
 * - `channels=alpha` -> `mask_only` (remove.bg then leaves out backgrounds and shadows, so the adapter does too);
 * - `roi` -> `roi` (an option of the tool's own, added for this: the matte is cleared outside the box).
 */
export interface ToolFieldsInput {
  request: RemoveBgRequest;
  /** The job input's size (after `size` reduced it): the canvas of `scale`. */
  width: number;
  height: number;
  hasBackgroundImage: boolean;
}

const CANVAS_SIDE_MAX = 8000;
const CANVAS_SIDE_MIN = 16;

const length = (l: Length) => (l.value === 0 ? '0' : `${l.value}${l.unit}`);

const FORMAT: Record<RemoveBgRequest['format'], string> = {
  auto: 'auto',
  png: 'png',
  jpg: 'jpeg',
  webp: 'webp',
  zip: 'png',
};

/**
 * remove.bg reads a % crop_margin as a share of the subject's size; our margin's % is of the canvas side. The
 * canvas of a crop is the subject plus its margins, so pa% and pb% of the subject on the two sides of an axis are
 * qa = pa / (1 + pa + pb) of the canvas side (the canvas, subject / (1 - qa - qb), is then subject * (1 + pa + pb)).
 * A px margin stays px; beside a % margin on the same axis the conversion is off by that px's share of the canvas.
 */
function cropMargins([top, right, bottom, left]: [Length, Length, Length, Length]): string {
  const share = (l: Length) => (l.unit === '%' ? l.value / 100 : 0);
  const vertical = 1 + share(top) + share(bottom);
  const horizontal = 1 + share(left) + share(right);
  const side = (l: Length, axis: number) =>
    l.unit === '%' && l.value !== 0 ? `${Number((l.value / axis).toFixed(4))}%` : length(l);
  return [side(top, vertical), side(right, horizontal), side(bottom, vertical), side(left, horizontal)].join(' ');
}

/** The canvas of `scale`: the input's size, within the sides our canvas allows (aspect kept). */
function scaleCanvas(width: number, height: number): string {
  const down = Math.min(1, CANVAS_SIDE_MAX / Math.max(width, height));
  const side = (n: number) => Math.max(CANVAS_SIDE_MIN, Math.round(n * down));
  return `${side(width)}x${side(height)}`;
}

export function toolFields({ request: r, width, height, hasBackgroundImage }: ToolFieldsInput): Record<string, string> {
  const fields: Record<string, string> = { output_format: FORMAT[r.format] };
  if (r.channels === 'alpha') {
    fields.mask_only = 'true';
  } else {
    if (r.bgColor) fields.background_color = r.bgColor;
    if (hasBackgroundImage) fields.background_image = 'true';
    if (r.addShadow) fields.shadow = 'drop';
  }
  if (r.crop) {
    fields.crop_to_subject = 'true';
    if (r.cropMargin) fields.margin = cropMargins(r.cropMargin);
  } else if (r.scale !== null) {
    fields.crop_to_subject = 'true';
    fields.canvas = scaleCanvas(width, height);
    const side = (100 - r.scale) / 2;
    if (side > 0) fields.margin = `${Number(side.toFixed(4))}%`;
  }
  if (r.roi) fields.roi = r.roi.map(length).join(' ');
  if (r.position === 'original') fields.position = 'original';
  else if (r.position) fields.position = `${r.position.x}% ${r.position.y}%`;
  return fields;
}

/** Which remove.bg code a refusal of a tool field stands for (the tool's 422 names the field). */
export const TOOL_FIELD_CODES: Record<string, string> = {
  margin: 'invalid_crop_margin',
  canvas: 'invalid_scale',
  position: 'invalid_position',
  background_color: 'invalid_bg_color',
  background_image: 'multiple_bg_sources',
  background_blur: 'multiple_bg_sources',
  output_format: 'invalid_format',
  mask_only: 'invalid_channels',
  crop_to_subject: 'invalid_crop',
  shadow: 'invalid_add_shadow',
  roi: 'invalid_roi',
};

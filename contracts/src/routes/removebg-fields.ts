import { z } from 'zod';
import { parseCssColor } from '../product-photo';

/**
 * remove.bg's request fields, once: the schema the /v1.0/removebg handler parses them with and the OpenAPI
 * document describes them from. Text fields arrive as strings (multipart, urlencoded) or as JSON values; blank
 * counts as absent, as remove.bg's own clients send empty strings for options not set. Each failure's message is
 * the `detail` of remove.bg's 400 for that field (`invalid_<field>`); the shape's order is the order remove.bg
 * checks them in, so the first issue is the one reported.
 */

export const REMOVEBG_SIZES = ['preview', 'small', 'regular', 'medium', 'hd', 'full', 'auto', '4k', '50mp'] as const;
const FOREGROUND_TYPES = [
  'auto',
  'person',
  'product',
  'animal',
  'car',
  'car_interior',
  'car_part',
  'transportation',
  'graphics',
  'other',
] as const;
const TYPE_LEVELS = ['none', '1', '2', 'latest'] as const;
const REMOVEBG_FORMATS = ['auto', 'png', 'jpg', 'webp', 'zip'] as const;

/** A length in px or % of the image (roi, crop_margin). */
export interface RemoveBgLength {
  value: number;
  unit: 'px' | '%';
}
type Sides = [RemoveBgLength, RemoveBgLength, RemoveBgLength, RemoveBgLength];

/** A field's text (numbers and booleans of JSON bodies as written); undefined when absent or blank. */
function text(name: string, lower = false) {
  return (value: unknown, ctx: z.RefinementCtx): string | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    if (typeof value !== 'string') {
      ctx.addIssue({ code: 'custom', message: `${name} must be text.` });
      return z.NEVER;
    }
    const s = value.trim();
    if (s === '') return undefined;
    return lower ? s.toLowerCase() : s;
  };
}

/** A text field read by `parse`, which returns undefined for a value it refuses (then `message` is the issue). */
function textField<T>(name: string, message: string, parse: (value: string) => T | undefined) {
  const parsed = z
    .string()
    .optional()
    .transform((value, ctx): T | null => {
      if (value === undefined) return null;
      const result = parse(value);
      if (result !== undefined) return result;
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    });
  return z.preprocess(text(name), parsed);
}

function oneOf<const V extends readonly [string, ...string[]]>(
  name: string,
  values: V,
  fallback: V[number],
  message = `${name} must be one of ${values.join(', ')}.`,
) {
  return z.preprocess(text(name, true), z.enum(values, { error: message }).default(fallback));
}

function flag(name: string, description: string) {
  const values = z.enum(['true', 'false', '1', '0'], { error: `${name} must be true or false.` });
  const parsed = values.optional().transform((v) => v === 'true' || v === '1');
  return z.preprocess(text(name, true), parsed).meta({ description });
}

function length(s: string, allowBare: boolean): RemoveBgLength | undefined {
  const m = /^(\d+(?:\.\d+)?)(px|%)?$/i.exec(s);
  if (!m) return undefined;
  if (!m[2] && !allowBare && Number(m[1]) !== 0) return undefined;
  return { value: Number(m[1]), unit: m[2] === '%' ? '%' : 'px' };
}

function roi(value: string): Sides | undefined {
  const parts = value.split(/\s+/).map((p) => length(p, false));
  if (parts.length !== 4 || parts.some((p) => p === undefined)) return undefined;
  const [x1, y1, x2, y2] = parts as Sides;
  // The corners are compared when both sides use one unit; mixed units are checked against the image later.
  if ((x1.unit === x2.unit && x1.value >= x2.value) || (y1.unit === y2.unit && y1.value >= y2.value)) return undefined;
  if (parts.some((p) => p!.unit === '%' && p!.value > 100)) return undefined;
  return [x1, y1, x2, y2];
}

/** CSS order top right bottom left, as our `margin` takes it. */
function cropMargin(value: string): Sides | undefined {
  const parts = value.split(/\s+/).map((p) => length(p, true));
  if (![1, 2, 4].includes(parts.length) || parts.some((p) => p === undefined)) return undefined;
  if (parts.some((p) => (p!.unit === '%' ? p!.value >= 50 : p!.value > 500))) return undefined;
  const [a, b = a, c = a, d = b] = parts as RemoveBgLength[];
  return [a!, b!, c!, d!];
}

/** 10-100 (% of the image the subject fills); `original` is null. */
function scale(value: string): number | 'original' | undefined {
  if (value.toLowerCase() === 'original') return 'original';
  const m = /^(\d+(?:\.\d+)?)%$/.exec(value);
  const n = m ? Number(m[1]) : NaN;
  return n >= 10 && n <= 100 ? n : undefined;
}

/** x and y in % (0-100), or `original`. */
function position(value: string): { x: number; y: number } | 'original' | undefined {
  const v = value.toLowerCase();
  if (v === 'original') return 'original';
  if (v === 'center') return { x: 50, y: 50 };
  const nums = v.split(/\s+/).map((p) => {
    const m = /^(\d+(?:\.\d+)?)%$/.exec(p);
    return m ? Number(m[1]) : NaN;
  });
  if (![1, 2].includes(nums.length) || nums.some((n) => !(n >= 0 && n <= 100))) return undefined;
  return { x: nums[0]!, y: nums[1] ?? nums[0]! };
}

/** remove.bg takes hex with or without `#` (3, 4, 6 or 8 digits) or a colour name; ours wants the `#`. */
function bgColor(value: string): string | undefined {
  const color = /^[0-9a-f]+$/i.test(value) ? `#${value}` : value;
  return /^#?[0-9a-z]+$/i.test(color) && parseCssColor(color) ? color.toLowerCase() : undefined;
}

/** The image fields, read by the handler itself (exactly one of them, or a file part, is a source). */
const source = (description: string) =>
  z
    .unknown()
    .optional()
    .meta({ type: 'string', description } as never);

export const removeBgFieldsSchema = z.object({
  image_file_b64: source('The image as base64 (a data: URL prefix allowed)'),
  image_url: source('An http(s) URL the API downloads the image from (public addresses only, 20 s, 3 redirects)'),
  size: oneOf('size', REMOVEBG_SIZES, 'preview').meta({
    description:
      'preview (default, 0.25 MP), medium (1.5 MP), hd (4 MP), full/auto/4k, 50MP; small and regular = preview',
  }),
  type: oneOf('type', FOREGROUND_TYPES, 'auto').meta({ description: 'Accepted; X-Type is always "other"' }),
  type_level: oneOf('type_level', TYPE_LEVELS, 'latest').meta({ description: 'Accepted' }),
  format: oneOf('format', REMOVEBG_FORMATS, 'auto').meta({
    description: 'auto (PNG with transparency, else JPEG), png, jpg, webp, zip (color.jpg + alpha.png)',
  }),
  channels: oneOf('channels', ['rgba', 'alpha'], 'rgba', 'channels must be rgba or alpha.').meta({
    description: 'alpha: the grey matte only',
  }),
  bg_color: textField(
    'bg_color',
    'bg_color must be a hex colour (3, 4, 6 or 8 digits, with or without #) or a colour name like white.',
    bgColor,
  ).meta({ description: 'Hex (3, 4, 6 or 8 digits, # optional) or a colour name' }),
  bg_image_url: textField('bg_image_url', '', (v) => v).meta({
    description: 'A background image URL (same rules as image_url)',
  }),
  roi: textField(
    'roi',
    'roi must be four values x1 y1 x2 y2, each in px or %, like "0% 0% 100% 100%", with x1 < x2 and y1 < y2.',
    roi,
  ).meta({ description: 'x1 y1 x2 y2 in px or %, e.g. "0% 0% 100% 100%"' }),
  crop: flag('crop', 'Crop to the subject'),
  crop_margin: textField(
    'crop_margin',
    'crop_margin must be 1, 2 or 4 values in px or %, like "30px", "10%" or "10px 20px 10px 20px" (px up to 500, % up to 50).',
    cropMargin,
  ).meta({ description: '1, 2 or 4 values in px or % (with crop)' }),
  scale: textField('scale', 'scale must be between 10% and 100%, or original.', scale).meta({
    description: "10%-100% (the subject's share of the image) or original",
  }),
  position: textField('position', 'position must be original, center, or one or two values in %.', position).meta({
    description: 'original, center, or one or two values in %',
  }),
  add_shadow: flag('add_shadow', 'A drop shadow under the subject'),
  semitransparency: flag('semitransparency', 'Accepted (our matte keeps semi-transparency anyway)'),
});

export type RemoveBgFields = z.output<typeof removeBgFieldsSchema>;

import { parseCssColor } from '@imagestudio/contracts';
import { badField, RemoveBgError } from './removebg-errors';
import { outputSize, SIZE_NAMES, type OutputSize } from './removebg-sizes';

/**
 * remove.bg's request fields, checked one by one with remove.bg's error code for each (400, before anything is
 * fetched or charged), into one typed request. Text fields arrive as strings (multipart, urlencoded) or as JSON
 * values; blank counts as absent, as remove.bg's own clients send empty strings for options not set.
 */

export const FOREGROUND_TYPES = [
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
export const TYPE_LEVELS = ['none', '1', '2', 'latest'] as const;
export const FORMATS = ['auto', 'png', 'jpg', 'webp', 'zip'] as const;
type RemoveBgFormat = (typeof FORMATS)[number];

/** A length in px or % of the image (roi, crop_margin). */
export interface Length {
  value: number;
  unit: 'px' | '%';
}

export interface RemoveBgRequest {
  size: OutputSize;
  type: string;
  format: RemoveBgFormat;
  /** x1 y1 x2 y2; null = the whole image. */
  roi: [Length, Length, Length, Length] | null;
  crop: boolean;
  /** CSS order top right bottom left, as our `margin` takes it. */
  cropMargin: [Length, Length, Length, Length] | null;
  /** 10-100 (% of the image the subject fills); null = `original`. */
  scale: number | null;
  /** x and y in % (0-100), or `original`; null = not sent (centre). */
  position: { x: number; y: number } | 'original' | null;
  channels: 'rgba' | 'alpha';
  /** As our `background_color` takes it: `#` + hex digits, or a CSS colour name. */
  bgColor: string | null;
  bgImageUrl: string | null;
  addShadow: boolean;
  semitransparency: boolean;
}

/** A field's text (numbers and booleans of JSON bodies as written); undefined when absent or blank. */
export function fieldText(fields: Record<string, unknown>, name: string): string | undefined {
  const v = fields[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v !== 'string') throw badField(`invalid_${name}`, `Invalid ${name}`, `${name} must be text.`);
  const s = v.trim();
  return s === '' ? undefined : s;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T, err: RemoveBgError): T {
  if (value === undefined) return fallback;
  const v = value.toLowerCase();
  if (!(allowed as readonly string[]).includes(v)) throw err;
  return v as T;
}

function bool(value: string | undefined, name: string): boolean {
  if (value === undefined) return false;
  const v = value.toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw badField(`invalid_${name}`, `Invalid ${name}`, `${name} must be true or false.`);
}

function length(s: string, allowBare: boolean): Length | undefined {
  const m = /^(\d+(?:\.\d+)?)(px|%)?$/i.exec(s);
  if (!m) return undefined;
  if (!m[2] && !allowBare && Number(m[1]) !== 0) return undefined;
  return { value: Number(m[1]), unit: m[2] === '%' ? '%' : 'px' };
}

function parseRoi(value: string | undefined): RemoveBgRequest['roi'] {
  if (value === undefined) return null;
  const err = badField(
    'invalid_roi',
    'Invalid roi',
    'roi must be four values x1 y1 x2 y2, each in px or %, like "0% 0% 100% 100%", with x1 < x2 and y1 < y2.',
  );
  const parts = value.split(/\s+/).map((p) => length(p, false));
  if (parts.length !== 4 || parts.some((p) => p === undefined)) throw err;
  const [x1, y1, x2, y2] = parts as Length[];
  // The corners are compared when both sides use one unit; mixed units are checked against the image later.
  if ((x1!.unit === x2!.unit && x1!.value >= x2!.value) || (y1!.unit === y2!.unit && y1!.value >= y2!.value)) throw err;
  if (parts.some((p) => p!.unit === '%' && p!.value > 100)) throw err;
  return [x1!, y1!, x2!, y2!];
}

function parseCropMargin(value: string | undefined): RemoveBgRequest['cropMargin'] {
  if (value === undefined) return null;
  const err = badField(
    'invalid_crop_margin',
    'Invalid crop_margin',
    'crop_margin must be 1, 2 or 4 values in px or %, like "30px", "10%" or "10px 20px 10px 20px" (px up to 500, % up to 50).',
  );
  const parts = value.split(/\s+/).map((p) => length(p, true));
  if (![1, 2, 4].includes(parts.length) || parts.some((p) => p === undefined)) throw err;
  if (parts.some((p) => (p!.unit === '%' ? p!.value >= 50 : p!.value > 500))) throw err;
  const [a, b = a, c = a, d = b] = parts as Length[];
  return [a!, b!, c!, d!];
}

function parseScale(value: string | undefined): number | null {
  if (value === undefined || value.toLowerCase() === 'original') return null;
  const m = /^(\d+(?:\.\d+)?)%$/.exec(value);
  const n = m ? Number(m[1]) : NaN;
  if (!(n >= 10 && n <= 100))
    throw badField('invalid_scale', 'Invalid scale', 'scale must be between 10% and 100%, or original.');
  return n;
}

function parsePosition(value: string | undefined): RemoveBgRequest['position'] {
  if (value === undefined) return null;
  const v = value.toLowerCase();
  if (v === 'original') return 'original';
  if (v === 'center') return { x: 50, y: 50 };
  const parts = v.split(/\s+/).map((p) => /^(\d+(?:\.\d+)?)%$/.exec(p));
  const nums = parts.map((m) => (m ? Number(m[1]) : NaN));
  if (![1, 2].includes(nums.length) || nums.some((n) => !(n >= 0 && n <= 100)))
    throw badField(
      'invalid_position',
      'Invalid position',
      'position must be original, center, or one or two values in %.',
    );
  return { x: nums[0]!, y: nums[1] ?? nums[0]! };
}

/** remove.bg takes hex with or without `#` (3, 4, 6 or 8 digits) or a colour name; ours wants the `#`. */
function parseBgColor(value: string | undefined): string | null {
  if (value === undefined) return null;
  const color = /^[0-9a-f]+$/i.test(value) ? `#${value}` : value;
  if (!/^#?[0-9a-z]+$/i.test(color) || !parseCssColor(color))
    throw badField(
      'invalid_bg_color',
      'Invalid bg_color',
      'bg_color must be a hex colour (3, 4, 6 or 8 digits, with or without #) or a colour name like white.',
    );
  return color.toLowerCase();
}

/** Every field but the sources, checked in remove.bg's order; throws the first bad one's 400. */
export function parseRemoveBgFields(fields: Record<string, unknown>): RemoveBgRequest {
  const text = (name: string) => fieldText(fields, name);
  const size = outputSize(text('size'));
  if (!size) throw badField('invalid_size', 'Invalid size', `size must be one of ${SIZE_NAMES.join(', ')}.`);
  const type = oneOf(
    text('type'),
    FOREGROUND_TYPES,
    'auto',
    badField('invalid_type', 'Invalid type', `type must be one of ${FOREGROUND_TYPES.join(', ')}.`),
  );
  oneOf(
    text('type_level'),
    TYPE_LEVELS,
    'latest',
    badField('invalid_type_level', 'Invalid type_level', `type_level must be one of ${TYPE_LEVELS.join(', ')}.`),
  );
  const format = oneOf(
    text('format'),
    FORMATS,
    'auto',
    badField('invalid_format', 'Invalid format', `format must be one of ${FORMATS.join(', ')}.`),
  );
  const channels = oneOf(
    text('channels'),
    ['rgba', 'alpha'] as const,
    'rgba',
    badField('invalid_channels', 'Invalid channels', 'channels must be rgba or alpha.'),
  );
  const bgColor = parseBgColor(text('bg_color'));
  const bgImageUrl = text('bg_image_url') ?? null;
  return {
    size,
    type,
    format,
    roi: parseRoi(text('roi')),
    crop: bool(text('crop'), 'crop'),
    cropMargin: parseCropMargin(text('crop_margin')),
    scale: parseScale(text('scale')),
    position: parsePosition(text('position')),
    channels,
    bgColor,
    bgImageUrl,
    addShadow: bool(text('add_shadow'), 'add_shadow'),
    semitransparency: bool(text('semitransparency'), 'semitransparency'),
  };
}

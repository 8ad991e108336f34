import { z } from 'zod';
import { CSS_NAMED_COLORS } from './css-colors';

/**
 * Product photos: the layout, background, shadow and format options of background removal, from the
 * multipart string fields of `POST /api/tools/remove-background` (and batches of it, and the free
 * `POST /api/jobs/{id}/compose`) to one typed, JSON-safe `ProductPhotoLayout` that the queue payload carries and
 * the composition engine (`@imagestudio/runtime/imaging`) renders. Every field is optional; the defaults give
 * today's output exactly (a transparent PNG of the input's size). docs/product-photos.md describes each option.
 */

/** What a refused option is told (the German texts are in migrations/seeds/strings/server.json). */
export const PRODUCT_PHOTO_MESSAGES = {
  cropToSubject: 'Crop to subject must be true or false.',
  marginFormat: 'Margin must be 1 to 4 values in % or px, like 10% or 10px 20px.',
  marginTooLarge: 'Margin must be under 50% on each side.',
  marginNoRoom: 'Margin must leave room for the subject on the canvas.',
  canvas:
    'Canvas must be original, a size like 2000x2000 (16 to 8000 pixels a side) or one of 1:1, 4:5, 3:4, 16:9, 9:16.',
  maxSide: 'Max side must be a whole number from 16 to 8000.',
  position: 'Position must be center, original or two percentages like 50% 100%.',
  keepCutEdges: 'Keep cut edges must be true or false.',
  backgroundColor: 'Background color must be #rgb, #rgba, #rrggbb, #rrggbbaa or a CSS color name like white.',
  backgroundBlur: 'Background blur must be a whole number from 1 to 100.',
  oneBackground: 'Choose only one background: a color, an image or a blur.',
  shadow: 'Shadow must be none, drop or contact.',
  shadowOpacity: 'Shadow opacity must be a number from 0 to 1.',
  outputFormat: 'Output format must be png, webp, avif, jpeg or auto.',
  quality: 'Quality must be a whole number from 1 to 100.',
  maskOnly: 'Mask only must be true or false.',
  maskOnlyAlone: 'Mask only cannot be combined with a background or a shadow.',
  roi: 'Region of interest must be four values x1 y1 x2 y2 in % or px, with x1 below x2 and y1 below y2.',
  // The composition engine's refusals of its inputs (an edited matte, the background image).
  matteSize: 'The matte must be the size of the image.',
  matteUnreadable: 'The matte could not be read as an image.',
  backgroundImageMissing: 'Please choose a background image to upload.',
  backgroundImageUnreadable: 'The background image could not be read.',
  // POST /api/jobs/{id}/compose.
  matteFormat: 'The matte must be a PNG image.',
  tooManyCompositions: 'Too many pictures made at once. Please wait a minute before making more.',
} as const;

const M = PRODUCT_PHOTO_MESSAGES;

export const CANVAS_ASPECTS = ['1:1', '4:5', '3:4', '16:9', '9:16'] as const;
export const PRODUCT_PHOTO_FORMATS = ['png', 'webp', 'avif', 'jpeg', 'auto'] as const;
export const SHADOW_KINDS = ['none', 'drop', 'contact'] as const;
export const CANVAS_SIDE_MIN = 16;
export const CANVAS_SIDE_MAX = 8000;
/** A margin side in % stays under this (so the subject always keeps some of the canvas). */
export const MARGIN_PERCENT_MAX = 50;
export const DEFAULT_SHADOW_OPACITY = 0.5;

const marginSideSchema = z.object({ value: z.number().min(0), unit: z.enum(['%', 'px']) });
export type MarginSide = z.infer<typeof marginSideSchema>;

/** The parsed layout: what the queue payload carries and the composition engine takes. */
export const productPhotoLayoutSchema = z.object({
  /** Crop to the subject's box in the matte (alpha above a small threshold, specks ignored). */
  cropToSubject: z.boolean(),
  /** Space around the subject (or the whole image without cropToSubject): % of the canvas width (left, right) or height (top, bottom), or px. */
  margin: z.object({
    top: marginSideSchema,
    right: marginSideSchema,
    bottom: marginSideSchema,
    left: marginSideSchema,
  }),
  canvas: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('original') }),
    z.object({
      kind: z.literal('size'),
      width: z.number().int().min(CANVAS_SIDE_MIN).max(CANVAS_SIDE_MAX),
      height: z.number().int().min(CANVAS_SIDE_MIN).max(CANVAS_SIDE_MAX),
    }),
    z.object({ kind: z.literal('aspect'), width: z.number().int().min(1), height: z.number().int().min(1) }),
  ]),
  /** Caps the canvas's longer side (scales down, never up). */
  maxSide: z.number().int().min(CANVAS_SIDE_MIN).max(CANVAS_SIDE_MAX).nullable(),
  /** Where the content sits in the free space: fractions 0..1 (0.5, 0.5 is centred), or the input's own placement. */
  position: z.union([z.literal('original'), z.object({ x: z.number().min(0).max(1), y: z.number().min(0).max(1) })]),
  /**
   * The frame rule: a side of the subject that the photo's frame cuts sits on the matching canvas edge (no margin
   * there). True unless `keep_cut_edges=false` or a `position` was sent (the customer's placement wins). Absent
   * (a layout queued before the rule): off, so such a job renders as it was asked.
   */
  keepCutEdges: z.boolean().optional(),
  background: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('none') }),
    /** Straight (not premultiplied) 8-bit RGBA. */
    z.object({ kind: z.literal('color'), rgba: z.tuple([byte(), byte(), byte(), byte()]) }),
    /** A second uploaded image, cover-fitted to the canvas (the bytes travel beside the layout). */
    z.object({ kind: z.literal('image') }),
    /** The original background, blurred by `radius` px at a 1000 px canvas (scaled with the canvas). */
    z.object({ kind: z.literal('blur'), radius: z.number().int().min(1).max(100) }),
  ]),
  shadow: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('none') }),
    z.object({ kind: z.enum(['drop', 'contact']), opacity: z.number().min(0).max(1) }),
  ]),
  outputFormat: z.enum(PRODUCT_PHOTO_FORMATS),
  /** 1-100 for the lossy encodings (JPEG, AVIF, lossy WebP); null: each format's default. */
  quality: z.number().int().min(1).max(100).nullable(),
  /** The matte alone (greyscale), laid out like the photo would be. */
  maskOnly: z.boolean(),
  /**
   * Region of interest: only the subject inside this box of the input counts (the matte is cleared outside it),
   * each edge in px or % of the input's width (left, right) or height (top, bottom). Absent: the whole input.
   */
  roi: z
    .object({ left: marginSideSchema, top: marginSideSchema, right: marginSideSchema, bottom: marginSideSchema })
    .optional(),
});
export type ProductPhotoLayout = z.infer<typeof productPhotoLayoutSchema>;
export type ProductPhotoFormat = (typeof PRODUCT_PHOTO_FORMATS)[number];

function byte() {
  return z.number().int().min(0).max(255);
}

const ZERO: MarginSide = { value: 0, unit: 'px' };

/** Today's output: the plain transparent cut-out at the input's size, as PNG. */
export const DEFAULT_PRODUCT_PHOTO_LAYOUT: ProductPhotoLayout = Object.freeze({
  cropToSubject: false,
  margin: { top: ZERO, right: ZERO, bottom: ZERO, left: ZERO },
  canvas: { kind: 'original' },
  maxSide: null,
  position: { x: 0.5, y: 0.5 },
  keepCutEdges: true,
  background: { kind: 'none' },
  shadow: { kind: 'none' },
  outputFormat: 'png',
  quality: null,
  maskOnly: false,
}) as ProductPhotoLayout;

// ---- parsing the multipart fields ----

/** A multipart field as text: numbers and booleans (JSON bodies) as written, blank as absent. */
const text = (message: string) =>
  z.preprocess(
    (v) => {
      const s = typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
      return typeof s === 'string' && s.trim() === '' ? undefined : typeof s === 'string' ? s.trim() : s;
    },
    z.string({ error: message }).optional(),
  );

/** A field parsed by `parse`, which returns undefined for text it refuses with `message`. */
function field<T>(message: string, parse: (s: string) => T | undefined) {
  return text(message).transform((s, ctx): T | undefined => {
    if (s === undefined) return undefined;
    const value = parse(s);
    if (value === undefined) {
      ctx.issues.push({ code: 'custom', message, input: s });
      return z.NEVER;
    }
    return value;
  });
}

function parseBool(s: string): boolean | undefined {
  const v = s.toLowerCase();
  return v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : undefined;
}

function parseWhole(min: number, max: number) {
  return (s: string): number | undefined => {
    if (!/^\d+$/.test(s)) return undefined;
    const n = Number(s);
    return n >= min && n <= max ? n : undefined;
  };
}

function parseMarginSide(s: string): MarginSide | undefined {
  const m = /^(\d+(?:\.\d+)?|\.\d+)(%|px)?$/i.exec(s);
  if (!m) return undefined;
  const value = Number(m[1]);
  // CSS allows a bare 0; any other number needs its unit.
  if (!m[2] && value !== 0) return undefined;
  return { value, unit: m[2] === '%' ? '%' : 'px' };
}

type Margin = ProductPhotoLayout['margin'];

/** CSS shorthand order: 1 value all sides, 2 vertical horizontal, 3 top horizontal bottom, 4 top right bottom left. */
function parseMargin(s: string): Margin | undefined {
  const parts = s.split(/\s+/).map(parseMarginSide);
  if (parts.length > 4 || parts.some((p) => p === undefined)) return undefined;
  const [a, b = a, c = a, d = b] = parts as MarginSide[];
  return { top: a!, right: b!, bottom: c!, left: d! };
}

function parseCanvas(s: string): ProductPhotoLayout['canvas'] | undefined {
  const v = s.toLowerCase();
  if (v === 'original') return { kind: 'original' };
  if ((CANVAS_ASPECTS as readonly string[]).includes(v)) {
    const [w, h] = v.split(':').map(Number);
    return { kind: 'aspect', width: w!, height: h! };
  }
  const m = /^(\d{1,4})x(\d{1,4})$/.exec(v);
  if (!m) return undefined;
  const width = Number(m[1]);
  const height = Number(m[2]);
  const ok = (n: number) => n >= CANVAS_SIDE_MIN && n <= CANVAS_SIDE_MAX;
  return ok(width) && ok(height) ? { kind: 'size', width, height } : undefined;
}

function parsePosition(s: string): ProductPhotoLayout['position'] | undefined {
  const v = s.toLowerCase();
  if (v === 'original') return 'original';
  if (v === 'center' || v === 'centre') return { x: 0.5, y: 0.5 };
  const m = /^(\d+(?:\.\d+)?)%\s+(\d+(?:\.\d+)?)%$/.exec(v);
  if (!m) return undefined;
  const x = Number(m[1]);
  const y = Number(m[2]);
  return x <= 100 && y <= 100 ? { x: x / 100, y: y / 100 } : undefined;
}

/** `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` or a CSS colour name -> straight RGBA bytes. */
export function parseCssColor(s: string): [number, number, number, number] | undefined {
  const v = s.trim().toLowerCase();
  let hex: string | undefined;
  if (v === 'transparent') return [0, 0, 0, 0];
  if (Object.hasOwn(CSS_NAMED_COLORS, v)) hex = CSS_NAMED_COLORS[v]!;
  else if (/^#[0-9a-f]+$/.test(v) && [4, 5, 7, 9].includes(v.length)) {
    const digits = v.slice(1);
    hex = digits.length <= 4 ? [...digits].map((d) => d + d).join('') : digits;
  }
  if (!hex) return undefined;
  const bytes = hex.match(/../g)!.map((h) => parseInt(h, 16));
  return [bytes[0]!, bytes[1]!, bytes[2]!, bytes.length === 4 ? bytes[3]! : 255];
}

function parseShadowOpacity(s: string): number | undefined {
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(s)) return undefined;
  const n = Number(s);
  return n <= 1 ? n : undefined;
}

/** `x1 y1 x2 y2`, each in px or % (a bare 0 too), the second corner right of and below the first when comparable. */
function parseRoi(s: string): ProductPhotoLayout['roi'] | undefined {
  const parts = s.split(/\s+/).map(parseMarginSide);
  if (parts.length !== 4 || parts.some((p) => p === undefined || (p.unit === '%' && p.value > 100))) return undefined;
  const [left, top, right, bottom] = parts as MarginSide[];
  const before = (a: MarginSide, b: MarginSide) => a.unit !== b.unit || a.value < b.value;
  return before(left!, right!) && before(top!, bottom!)
    ? { left: left!, top: top!, right: right!, bottom: bottom! }
    : undefined;
}

/** A field present without a value of its own: the route sets it when the request carries that file part. */
const present = z.preprocess(
  (v) => (v === undefined || v === null || v === false || v === '' || v === 'false' ? undefined : true),
  z.literal(true).optional(),
);

/**
 * The multipart fields of the options (snake_case, all optional) -> `ProductPhotoLayout`. `background_image`
 * stands for the second file of the request: the route sets it (to `true`) when that file part is there, so
 * the one-background rule is checked here with the others, before anything is charged.
 */
export const productPhotoFieldsSchema = z.object({
  crop_to_subject: field(M.cropToSubject, parseBool).describe(
    'true: crop to the subject (alpha above ~10%, specks left out)',
  ),
  margin: field(M.marginFormat, parseMargin).describe('CSS shorthand, 1-4 values in % or px: 10%, 40px, 5% 10%'),
  canvas: field(M.canvas, parseCanvas).describe(
    'original (default), WxH (16-8000 a side) or 1:1, 4:5, 3:4, 16:9, 9:16',
  ),
  max_side: field(M.maxSide, parseWhole(CANVAS_SIDE_MIN, CANVAS_SIDE_MAX)).describe(
    "Caps the canvas's longer side (16-8000)",
  ),
  position: field(M.position, parsePosition).describe('center (default), original, or X% Y% of the free space'),
  keep_cut_edges: field(M.keepCutEdges, parseBool).describe(
    "true (default): a side of the subject cut by the photo's frame sits on the canvas edge, unless position is sent",
  ),
  background_color: field(M.backgroundColor, parseCssColor).describe(
    '#rgb, #rgba, #rrggbb, #rrggbbaa, a CSS colour name or transparent',
  ),
  background_image: present.describe('A second file part of the request (set by the server when the file came)'),
  background_blur: field(M.backgroundBlur, parseWhole(1, 100)).describe('1-100: keep the original background, blurred'),
  shadow: field(M.shadow, (s) => (SHADOW_KINDS as readonly string[]).find((k) => k === s.toLowerCase())).describe(
    'none (default), drop or contact',
  ),
  shadow_opacity: field(M.shadowOpacity, parseShadowOpacity).describe('0-1 (default 0.5)'),
  output_format: field(M.outputFormat, (s) =>
    (PRODUCT_PHOTO_FORMATS as readonly string[]).find((k) => k === s.toLowerCase()),
  ).describe('png (default), webp, avif, jpeg, or auto (PNG with transparency left, else JPEG)'),
  quality: field(M.quality, parseWhole(1, 100)).describe('1-100 for jpeg, avif and lossy webp'),
  mask_only: field(M.maskOnly, parseBool).describe('true: the matte alone (greyscale), laid out like the picture'),
  roi: field(M.roi, parseRoi).describe('x1 y1 x2 y2 in px or %: only the subject inside this box of the input counts'),
});

/** The multipart option fields by name (what routes and documentation list). */
export const PRODUCT_PHOTO_FIELDS = Object.keys(
  productPhotoFieldsSchema.shape,
) as (keyof typeof productPhotoFieldsSchema.shape)[];

export const productPhotoRequestSchema = productPhotoFieldsSchema
  .superRefine((v, ctx) => {
    const refuse = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (v.margin) {
      const sides = [v.margin.top, v.margin.right, v.margin.bottom, v.margin.left];
      if (sides.some((m) => m.unit === '%' && m.value >= MARGIN_PERCENT_MAX)) refuse('margin', M.marginTooLarge);
      else if (!marginLeavesRoom(v.margin, v.canvas, v.max_side)) refuse('margin', M.marginNoRoom);
    }
    const backgrounds = (['background_color', 'background_image', 'background_blur'] as const).filter(
      (k) => v[k] !== undefined,
    );
    // The second (and any third) source named is the one refused.
    for (const extra of backgrounds.slice(1)) refuse(extra, M.oneBackground);
    if (v.mask_only && (backgrounds.length > 0 || (v.shadow !== undefined && v.shadow !== 'none')))
      refuse('mask_only', M.maskOnlyAlone);
  })
  .transform((v): ProductPhotoLayout => {
    const d = DEFAULT_PRODUCT_PHOTO_LAYOUT;
    const shadow = (v.shadow ?? 'none') as (typeof SHADOW_KINDS)[number];
    return {
      cropToSubject: v.crop_to_subject ?? d.cropToSubject,
      margin: v.margin ?? d.margin,
      canvas: v.canvas ?? d.canvas,
      maxSide: v.max_side ?? null,
      position: v.position ?? d.position,
      // A position the customer chose is kept as asked: the frame rule only replaces the default centring.
      keepCutEdges: (v.keep_cut_edges ?? true) && v.position === undefined,
      background: v.background_color
        ? { kind: 'color', rgba: v.background_color }
        : v.background_image
          ? { kind: 'image' }
          : v.background_blur
            ? { kind: 'blur', radius: v.background_blur }
            : { kind: 'none' },
      shadow:
        shadow === 'none' ? { kind: 'none' } : { kind: shadow, opacity: v.shadow_opacity ?? DEFAULT_SHADOW_OPACITY },
      outputFormat: (v.output_format ?? d.outputFormat) as ProductPhotoFormat,
      quality: v.quality ?? null,
      maskOnly: v.mask_only ?? false,
      ...(v.roi ? { roi: v.roi } : {}),
    };
  });
export type ProductPhotoRequest = z.input<typeof productPhotoRequestSchema>;

/**
 * Whether px margins leave the subject at least one pixel of the largest canvas the layout allows; % margins
 * alone always do (each side is under 50%).
 */
function marginLeavesRoom(
  margin: Margin,
  canvas: ProductPhotoLayout['canvas'] | undefined,
  maxSide: number | undefined,
): boolean {
  const room = (side: number, a: MarginSide, b: MarginSide) =>
    side - [a, b].reduce((sum, m) => sum + (m.unit === '%' ? (m.value / 100) * side : m.value), 0) >= 1;
  if (canvas?.kind === 'size') {
    const scale = maxSide ? Math.min(1, maxSide / Math.max(canvas.width, canvas.height)) : 1;
    const w = Math.round(canvas.width * scale);
    const h = Math.round(canvas.height * scale);
    return room(w, margin.left, margin.right) && room(h, margin.top, margin.bottom);
  }
  // Otherwise the canvas grows with the subject up to max_side (or the largest canvas): its long side is at most
  // that, and an aspect fixes the short side; the original canvas's short side may be that long too.
  const cap = maxSide ?? CANVAS_SIDE_MAX;
  const { width: aw, height: ah } = canvas?.kind === 'aspect' ? canvas : { width: 1, height: 1 };
  const w = aw >= ah ? cap : Math.round((cap * aw) / ah);
  const h = ah >= aw ? cap : Math.round((cap * ah) / aw);
  return room(w, margin.left, margin.right) && room(h, margin.top, margin.bottom);
}

/**
 * True when the layout keeps today's plain cut-out (the input's size, transparent, no shadow), whatever its
 * format; position moves nothing then, as there is no free space.
 */
export function isPlainCutout(layout: ProductPhotoLayout): boolean {
  return (
    // Without a crop, the original canvas takes no margin (planLayout): any margin leaves the input as it is.
    !layout.cropToSubject &&
    layout.canvas.kind === 'original' &&
    layout.maxSide === null &&
    layout.background.kind === 'none' &&
    layout.shadow.kind === 'none' &&
    !layout.roi
  );
}

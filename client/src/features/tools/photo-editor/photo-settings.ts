/**
 * The product-photo settings as the editor shows them (swatches, presets, a shadow choice) and their translation
 * into the API's multipart fields (contracts/src/product-photo.ts), which the single run, a batch and the free
 * `POST /api/jobs/{id}/compose` (and its preview, which the server renders from the same fields) all take.
 */

export const BACKGROUNDS = ['transparent', 'white', 'black', 'color', 'image', 'blur'] as const;
export type BackgroundChoice = (typeof BACKGROUNDS)[number];

/** Canvas presets, named for where the picture goes. */
export const CANVAS_PRESETS = ['square2000', 'portrait45', 'original'] as const;
export type CanvasPreset = (typeof CANVAS_PRESETS)[number];

/** The shadows the engine draws (contracts' `shadow` field): none, the offset drop shadow, the grounded contact shadow. */
export const SHADOWS = ['none', 'drop', 'contact'] as const;
export type ShadowChoice = (typeof SHADOWS)[number];

export const EDITOR_FORMATS = ['png', 'webp', 'avif', 'jpeg'] as const;
export type EditorFormat = (typeof EDITOR_FORMATS)[number];

const FORMAT_LABELS: Record<EditorFormat, string> = { png: 'PNG', webp: 'WebP', avif: 'AVIF', jpeg: 'JPEG' };

/**
 * The output formats as a select offers them: the same in the cut-out's options before a run and in the editor
 * after it (a JPEG has no transparency: the server flattens it on white).
 */
export const FORMAT_OPTIONS = EDITOR_FORMATS.map((value) => ({ value, label: FORMAT_LABELS[value] }));

/** The formats a quality applies to (PNG is lossless; WebP turns lossy with one). */
export const LOSSY_FORMATS: readonly EditorFormat[] = ['webp', 'avif', 'jpeg'];

/** The margin slider's range, in % of the canvas side (the API refuses 50% and more). */
export const MARGIN_MAX = 30;

export interface PhotoSettings {
  background: BackgroundChoice;
  /** The picked colour (`#rrggbb`) of the `color` swatch. */
  color: string;
  /** The blur radius (1-100, at a 1000 px canvas) of the `blur` swatch. */
  blur: number;
  cropToSubject: boolean;
  /** % of the canvas side on every side. */
  margin: number;
  preset: CanvasPreset;
  shadow: ShadowChoice;
  /** The shadow's darkness, 0-100 %. */
  shadowStrength: number;
  format: EditorFormat;
  /** 1-100, for the lossy formats. */
  quality: number;
}

/** A marketplace-ready start: cropped to the subject with an even margin on a white square. */
export const DEFAULT_PHOTO_SETTINGS: PhotoSettings = Object.freeze({
  background: 'white',
  color: '#19c3a6',
  blur: 20,
  cropToSubject: true,
  margin: 8,
  preset: 'square2000',
  shadow: 'none',
  shadowStrength: 50,
  format: 'jpeg',
  quality: 90,
});

/**
 * What each preset asks of the canvas: fixed sizes (the subject is scaled to fill them inside the margin, so a
 * small photo still gives the size the place wants): a 2000 px square, the 1080 x 1350 of a 4:5 social post.
 */
const PRESET_FIELDS: Record<CanvasPreset, Record<string, string>> = {
  square2000: { canvas: '2000x2000' },
  portrait45: { canvas: '1080x1350' },
  original: { canvas: 'original' },
};

const SWATCH_COLORS: Partial<Record<BackgroundChoice, string>> = { white: '#ffffff', black: '#000000' };

/** The background colour a swatch fills with, or null for the swatches without one. */
export function swatchColor(settings: Pick<PhotoSettings, 'background' | 'color'>): string | null {
  if (settings.background === 'color') return settings.color;
  return SWATCH_COLORS[settings.background] ?? null;
}

/**
 * The settings as the API's string fields. The `image` swatch's file is the caller's to add as the
 * `background_image` part (a batch, a run and compose each carry it in their own request).
 */
export function photoFields(settings: PhotoSettings): Record<string, string> {
  const fields: Record<string, string> = {
    crop_to_subject: String(settings.cropToSubject),
    margin: `${settings.margin}%`,
    ...PRESET_FIELDS[settings.preset],
    output_format: settings.format,
  };
  const color = swatchColor(settings);
  if (color) fields.background_color = color;
  if (settings.background === 'blur') fields.background_blur = String(settings.blur);
  if (settings.shadow !== 'none') {
    fields.shadow = settings.shadow;
    fields.shadow_opacity = String(settings.shadowStrength / 100);
  }
  if (LOSSY_FORMATS.includes(settings.format)) fields.quality = String(settings.quality);
  return fields;
}

/** Whether the settings can be sent as they are: the `image` swatch needs its file. */
export function photoSettingsReady(settings: PhotoSettings, hasImage: boolean): boolean {
  return settings.background !== 'image' || hasImage;
}

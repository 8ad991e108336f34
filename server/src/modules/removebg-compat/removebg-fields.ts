import { removeBgFieldsSchema, type RemoveBgFields, type RemoveBgLength } from '@imagestudio/contracts';
import { badField } from './removebg-errors';
import { outputSize, type OutputSize } from './removebg-sizes';

/**
 * remove.bg's request fields, parsed with their one schema (contracts/src/routes/removebg-fields.ts, which the
 * OpenAPI document describes them from) into one typed request; a bad field is remove.bg's 400 for it, before
 * anything is fetched or charged.
 */

export type Length = RemoveBgLength;

export interface RemoveBgRequest {
  size: OutputSize;
  type: string;
  format: RemoveBgFields['format'];
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

/** Every field but the sources, checked in remove.bg's order; throws the first bad one's 400. */
export function parseRemoveBgFields(fields: Record<string, unknown>): RemoveBgRequest {
  const parsed = removeBgFieldsSchema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    throw badField(`invalid_${name}`, `Invalid ${name}`, issue.message);
  }
  const f = parsed.data;
  return {
    size: outputSize(f.size)!,
    type: f.type,
    format: f.format,
    roi: f.roi,
    crop: f.crop,
    cropMargin: f.crop_margin,
    scale: f.scale === 'original' ? null : f.scale,
    position: f.position,
    channels: f.channels,
    bgColor: f.bg_color,
    bgImageUrl: f.bg_image_url,
    addShadow: f.add_shadow,
    semitransparency: f.semitransparency,
  };
}

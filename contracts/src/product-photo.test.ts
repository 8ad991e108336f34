import fs from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_PRODUCT_PHOTO_LAYOUT,
  PRODUCT_PHOTO_MESSAGES as M,
  isPlainCutout,
  parseCssColor,
  productPhotoLayoutSchema,
  productPhotoRequestSchema,
  type ProductPhotoLayout,
} from './product-photo';

function parse(fields: Record<string, unknown>): ProductPhotoLayout {
  return productPhotoRequestSchema.parse(fields);
}

/** field -> messages of a refused request. */
function refusals(fields: Record<string, unknown>): Record<string, string[]> {
  const r = productPhotoRequestSchema.safeParse(fields);
  if (r.success) throw new Error(`accepted: ${JSON.stringify(fields)}`);
  const out: Record<string, string[]> = {};
  for (const issue of r.error.issues) (out[issue.path.join('.')] ??= []).push(issue.message);
  return out;
}

describe('product photo options', () => {
  it('defaults to the plain cut-out: no fields, blank fields and unrelated fields', () => {
    expect(parse({})).toEqual(DEFAULT_PRODUCT_PHOTO_LAYOUT);
    expect(parse({ margin: '', canvas: ' ', background_color: '', lang_id: '2' })).toEqual(
      DEFAULT_PRODUCT_PHOTO_LAYOUT,
    );
    expect(isPlainCutout(parse({ output_format: 'webp', position: '10% 10%' }))).toBe(true);
    expect(isPlainCutout(parse({ crop_to_subject: 'true' }))).toBe(false);
    expect(isPlainCutout(parse({ margin: '8%' }))).toBe(true);
    expect(isPlainCutout(parse({ margin: '8%', canvas: '1:1' }))).toBe(false);
    expect(productPhotoLayoutSchema.parse(DEFAULT_PRODUCT_PHOTO_LAYOUT)).toEqual(DEFAULT_PRODUCT_PHOTO_LAYOUT);
  });

  it('reads margins in CSS shorthand order, in % or px', () => {
    const p = (v: number) => ({ value: v, unit: '%' });
    const x = (v: number) => ({ value: v, unit: 'px' });
    expect(parse({ margin: '10%' }).margin).toEqual({ top: p(10), right: p(10), bottom: p(10), left: p(10) });
    expect(parse({ margin: '40px' }).margin).toEqual({ top: x(40), right: x(40), bottom: x(40), left: x(40) });
    expect(parse({ margin: '5% 10%' }).margin).toEqual({ top: p(5), right: p(10), bottom: p(5), left: p(10) });
    expect(parse({ margin: '1px 2px 3px' }).margin).toEqual({ top: x(1), right: x(2), bottom: x(3), left: x(2) });
    expect(parse({ margin: '10px 20px 30px 2.5%' }).margin).toEqual({
      top: x(10),
      right: x(20),
      bottom: x(30),
      left: p(2.5),
    });
    expect(parse({ margin: '0' }).margin.top).toEqual(x(0));
  });

  it('reads canvases, max_side and positions', () => {
    expect(parse({ canvas: 'original' }).canvas).toEqual({ kind: 'original' });
    expect(parse({ canvas: '2000x1500' }).canvas).toEqual({ kind: 'size', width: 2000, height: 1500 });
    expect(parse({ canvas: '16x8000' }).canvas).toEqual({ kind: 'size', width: 16, height: 8000 });
    for (const [a, w, h] of [
      ['1:1', 1, 1],
      ['4:5', 4, 5],
      ['3:4', 3, 4],
      ['16:9', 16, 9],
      ['9:16', 9, 16],
    ] as const)
      expect(parse({ canvas: a }).canvas).toEqual({ kind: 'aspect', width: w, height: h });
    expect(parse({ canvas: '4:5', max_side: '1350' }).maxSide).toBe(1350);
    expect(parse({ max_side: 1350 }).maxSide).toBe(1350);
    expect(parse({ position: 'center' }).position).toEqual({ x: 0.5, y: 0.5 });
    expect(parse({ position: '0% 100%' }).position).toEqual({ x: 0, y: 1 });
    expect(parse({ position: 'original' }).position).toBe('original');
  });

  it('keeps cut edges on the canvas edge by default, not when turned off or when a position is sent', () => {
    expect(parse({}).keepCutEdges).toBe(true);
    expect(parse({ keep_cut_edges: 'true' }).keepCutEdges).toBe(true);
    expect(parse({ keep_cut_edges: 'false' }).keepCutEdges).toBe(false);
    expect(parse({ keep_cut_edges: false }).keepCutEdges).toBe(false);
    expect(parse({ keep_cut_edges: '0' }).keepCutEdges).toBe(false);
    // The customer's own placement wins, even the centre.
    for (const position of ['center', '0% 100%', 'original'])
      expect(parse({ position, keep_cut_edges: 'true' }).keepCutEdges).toBe(false);
    // A layout from before the rule (no field) is still a valid payload.
    const { keepCutEdges: _, ...before } = parse({ crop_to_subject: 'true' });
    expect(productPhotoLayoutSchema.parse(before).keepCutEdges).toBeUndefined();
  });

  it('reads background colours as RGBA: hex with and without alpha, CSS names', () => {
    expect(parse({ background_color: '#fff' }).background).toEqual({ kind: 'color', rgba: [255, 255, 255, 255] });
    expect(parseCssColor('#f008')).toEqual([255, 0, 0, 0x88]);
    expect(parseCssColor('#12AB34')).toEqual([0x12, 0xab, 0x34, 255]);
    expect(parseCssColor('#12ab3480')).toEqual([0x12, 0xab, 0x34, 0x80]);
    expect(parseCssColor('white')).toEqual([255, 255, 255, 255]);
    expect(parseCssColor('RebeccaPurple')).toEqual([102, 51, 153, 255]);
    expect(parseCssColor('transparent')).toEqual([0, 0, 0, 0]);
    for (const bad of ['#ff', '#fffff', 'notacolor', 'rgb(1,2,3)', '#ggg', 'constructor', 'toString'])
      expect(parseCssColor(bad)).toBeUndefined();
  });

  it('reads the other backgrounds, shadows, formats and flags', () => {
    expect(parse({ background_blur: '20' }).background).toEqual({ kind: 'blur', radius: 20 });
    expect(parse({ background_image: true }).background).toEqual({ kind: 'image' });
    expect(parse({ background_image: 'false' }).background).toEqual({ kind: 'none' });
    expect(parse({ shadow: 'drop' }).shadow).toEqual({ kind: 'drop', opacity: 0.5 });
    expect(parse({ shadow: 'contact', shadow_opacity: '0.25' }).shadow).toEqual({ kind: 'contact', opacity: 0.25 });
    expect(parse({ shadow: 'none', shadow_opacity: '1' }).shadow).toEqual({ kind: 'none' });
    for (const f of ['png', 'webp', 'avif', 'jpeg', 'auto'])
      expect(parse({ output_format: f, quality: '80' })).toMatchObject({ outputFormat: f, quality: 80 });
    expect(parse({ crop_to_subject: 'true', mask_only: '1' })).toMatchObject({ cropToSubject: true, maskOnly: true });
    // Every parsed layout is a valid queue payload.
    const full = parse({
      crop_to_subject: 'true',
      margin: '5% 20px',
      canvas: '4:5',
      max_side: '1350',
      position: '50% 100%',
      background_color: '#ffffff80',
      shadow: 'contact',
      output_format: 'auto',
      quality: '90',
    });
    expect(productPhotoLayoutSchema.parse(JSON.parse(JSON.stringify(full)))).toEqual(full);
  });

  it('refuses each bad value with a sentence naming the field', () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ crop_to_subject: 'yes' }, 'crop_to_subject', M.cropToSubject],
      [{ margin: '10' }, 'margin', M.marginFormat],
      [{ margin: '10em' }, 'margin', M.marginFormat],
      [{ margin: '1px 2px 3px 4px 5px' }, 'margin', M.marginFormat],
      [{ margin: '-5%' }, 'margin', M.marginFormat],
      [{ margin: '50%' }, 'margin', M.marginTooLarge],
      [{ margin: '10% 10% 10% 60%' }, 'margin', M.marginTooLarge],
      [{ margin: '500px', canvas: '1000x1000' }, 'margin', M.marginNoRoom],
      [{ margin: '10px 700px', canvas: '4:5', max_side: '1350' }, 'margin', M.marginNoRoom],
      [{ margin: '4000px' }, 'margin', M.marginNoRoom],
      [{ canvas: '2:1' }, 'canvas', M.canvas],
      [{ canvas: '15x100' }, 'canvas', M.canvas],
      [{ canvas: '100x8001' }, 'canvas', M.canvas],
      [{ canvas: 'big' }, 'canvas', M.canvas],
      [{ max_side: '15' }, 'max_side', M.maxSide],
      [{ max_side: '1350.5' }, 'max_side', M.maxSide],
      [{ position: 'top' }, 'position', M.position],
      [{ position: '50% 101%' }, 'position', M.position],
      [{ keep_cut_edges: 'sometimes' }, 'keep_cut_edges', M.keepCutEdges],
      [{ background_color: 'blurple' }, 'background_color', M.backgroundColor],
      [{ background_blur: '0' }, 'background_blur', M.backgroundBlur],
      [{ background_blur: '101' }, 'background_blur', M.backgroundBlur],
      [{ shadow: 'soft' }, 'shadow', M.shadow],
      [{ shadow: 'drop', shadow_opacity: '1.5' }, 'shadow_opacity', M.shadowOpacity],
      [{ shadow_opacity: '-0.1' }, 'shadow_opacity', M.shadowOpacity],
      [{ output_format: 'gif' }, 'output_format', M.outputFormat],
      [{ quality: '0' }, 'quality', M.quality],
      [{ quality: '101' }, 'quality', M.quality],
      [{ mask_only: 'maybe' }, 'mask_only', M.maskOnly],
      [{ mask_only: 'true', background_color: 'white' }, 'mask_only', M.maskOnlyAlone],
      [{ mask_only: 'true', shadow: 'drop' }, 'mask_only', M.maskOnlyAlone],
      [{ canvas: ['1:1', '4:5'] }, 'canvas', M.canvas],
    ];
    for (const [fields, key, message] of cases)
      expect([fields, refusals(fields)]).toEqual([fields, { [key]: [message] }]);
  });

  it('refuses a second (and third) background source, naming it', () => {
    expect(refusals({ background_color: 'white', background_blur: '10' })).toEqual({
      background_blur: [M.oneBackground],
    });
    expect(refusals({ background_color: 'white', background_image: true })).toEqual({
      background_image: [M.oneBackground],
    });
    expect(refusals({ background_color: 'white', background_image: true, background_blur: '5' })).toEqual({
      background_image: [M.oneBackground],
      background_blur: [M.oneBackground],
    });
  });

  it('lists every message with its German text in the server strings', () => {
    const file = path.resolve(__dirname, '..', '..', 'migrations', 'seeds', 'strings', 'server.json');
    const strings = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<'en' | 'de', Record<string, string>>;
    for (const message of Object.values(M)) {
      const key = Object.keys(strings.en).find((k) => strings.en[k] === message);
      expect([message, key && strings.de[key]?.length]).toEqual([message, expect.any(Number)]);
    }
  });
});

describe('roi (the region of interest, for the remove.bg-compatible API)', () => {
  it('parses x1 y1 x2 y2 in px or % into the layout, and leaves it out when not sent', () => {
    expect(parse({ roi: '0 10px 50% 100%' }).roi).toEqual({
      left: { value: 0, unit: 'px' },
      top: { value: 10, unit: 'px' },
      right: { value: 50, unit: '%' },
      bottom: { value: 100, unit: '%' },
    });
    expect(parse({}).roi).toBeUndefined();
    expect(isPlainCutout(parse({ roi: '0 0 50% 50%' }))).toBe(false);
  });

  it('refuses three values, a second corner before the first, and over 100%', () => {
    for (const roi of ['0 0 10px', '20px 0 10px 10px', '0 30px 10px 20px', '0 0 120% 50%', '0 0 10 10'])
      expect(refusals({ roi })).toEqual({ roi: [M.roi] });
  });
});

import { planLayout, productPhotoRequestSchema } from '@imagestudio/contracts';
import { en } from '../../../lib/i18n';
import {
  BACKGROUNDS,
  CANVAS_PRESETS,
  DEFAULT_PHOTO_SETTINGS,
  EDITOR_FORMATS,
  photoFields,
  photoSettingsReady,
  SHADOWS,
  type PhotoSettings,
} from './photo-settings';

const settings = (over: Partial<PhotoSettings> = {}): PhotoSettings => ({ ...DEFAULT_PHOTO_SETTINGS, ...over });

describe('photo editor settings -> API fields', () => {
  it('starts as a marketplace picture: cropped, 8% margin, white 2000 px square, JPEG at 90', () => {
    expect(photoFields(settings())).toEqual({
      crop_to_subject: 'true',
      margin: '8%',
      canvas: '2000x2000',
      background_color: '#ffffff',
      output_format: 'jpeg',
      quality: '90',
    });
  });

  it('gives each background swatch its one field', () => {
    const bg = (over: Partial<PhotoSettings>) => {
      const f = photoFields(settings(over));
      return { color: f.background_color, blur: f.background_blur, image: f.background_image };
    };
    expect(bg({ background: 'transparent' })).toEqual({ color: undefined, blur: undefined, image: undefined });
    expect(bg({ background: 'white' }).color).toBe('#ffffff');
    expect(bg({ background: 'black' }).color).toBe('#000000');
    expect(bg({ background: 'color', color: '#ff8800' }).color).toBe('#ff8800');
    expect(bg({ background: 'blur', blur: 35 })).toEqual({ color: undefined, blur: '35', image: undefined });
    // The image is a file part the caller adds; the field itself is never text.
    expect(bg({ background: 'image' })).toEqual({ color: undefined, blur: undefined, image: undefined });
  });

  it('maps the canvas presets, the shadow, crop, margin and quality', () => {
    expect(photoFields(settings({ preset: 'portrait45' })).canvas).toBe('1080x1350');
    expect(photoFields(settings({ preset: 'original' })).canvas).toBe('original');
    expect(photoFields(settings({ preset: 'original' })).max_side).toBeUndefined();
    expect(photoFields(settings({ shadow: 'drop', shadowStrength: 35 }))).toMatchObject({
      shadow: 'drop',
      shadow_opacity: '0.35',
    });
    expect(photoFields(settings({ shadow: 'contact', shadowStrength: 60 }))).toMatchObject({
      shadow: 'contact',
      shadow_opacity: '0.6',
    });
    expect(photoFields(settings({ shadow: 'none' })).shadow).toBeUndefined();
    expect(photoFields(settings({ shadow: 'none' })).shadow_opacity).toBeUndefined();
    expect(photoFields(settings({ cropToSubject: false, margin: 0 }))).toMatchObject({
      crop_to_subject: 'false',
      margin: '0%',
    });
    // PNG is lossless: no quality is sent (WebP with one would turn lossy, which the user chose by the format).
    expect(photoFields(settings({ format: 'png' })).quality).toBeUndefined();
    expect(photoFields(settings({ format: 'avif', quality: 55 })).quality).toBe('55');
  });

  it('sends only what the API accepts, for every combination', () => {
    for (const background of BACKGROUNDS)
      for (const preset of CANVAS_PRESETS)
        for (const format of EDITOR_FORMATS)
          for (const shadow of SHADOWS) {
            const fields = photoFields(settings({ background, preset, format, shadow, margin: 30 }));
            const parsed = productPhotoRequestSchema.safeParse(fields);
            expect([background, preset, format, shadow, parsed.success]).toEqual([
              background,
              preset,
              format,
              shadow,
              true,
            ]);
          }
  });

  it('sends fields the contract lays out as intended: the portrait preset is 1080 x 1350, the subject scaled inside the margin', () => {
    const layout = productPhotoRequestSchema.parse(photoFields(settings({ preset: 'portrait45', margin: 10 })));
    expect(layout.canvas).toEqual({ kind: 'size', width: 1080, height: 1350 });
    const plan = planLayout({ width: 400, height: 300 }, { left: 100, top: 50, width: 200, height: 200 }, layout);
    expect(plan.canvas).toEqual({ width: 1080, height: 1350 });
    // 10% of 1080 on the left and right: the square subject is 864 px wide, centred.
    expect(plan.target).toEqual({ left: 108, top: 243, width: 864, height: 864 });
    expect(
      planLayout({ width: 3000, height: 2000 }, null, productPhotoRequestSchema.parse(photoFields(settings()))).canvas,
    ).toEqual({
      width: 2000,
      height: 2000,
    });
  });

  it('needs the file for the image swatch', () => {
    const image = settings({ background: 'image' });
    expect(photoSettingsReady(image, false)).toBe(false);
    expect(photoSettingsReady(image, true)).toBe(true);
    expect(photoSettingsReady(settings(), false)).toBe(true);
  });

  it('names the canvas presets for where the picture goes', () => {
    expect(CANVAS_PRESETS.map((p) => en[`client-tools.editor.preset.${p}`])).toEqual([
      'Square 2000 px - marketplaces',
      'Portrait 4:5 - social',
      'Original',
    ]);
  });
});

import sharp from 'sharp';
import { encodeRaw } from './encode';
import { insertPngIcc, keepsRgbProfile, srgbToProfile } from './icc';
import { pngChunks } from './png-xmp';

/** A Display P3 image's profile and raw pixel values (saturated colours sRGB would move). */
async function p3(): Promise<{ icc: Buffer; raw: Buffer }> {
  const tagged = await sharp({ create: { width: 8, height: 4, channels: 3, background: { r: 230, g: 30, b: 20 } } })
    .withIccProfile('p3')
    .png()
    .toBuffer();
  return { icc: (await sharp(tagged).metadata()).icc!, raw: await sharp(tagged).keepIccProfile().raw().toBuffer() };
}

const provenance = { source: 'compositeWithTrainedAlgorithmicMedia', tool: 'test' } as const;

describe('encodeRaw with a colour profile', () => {
  it.each([
    ['png', 0],
    ['webp', 0],
    ['jpeg', 2],
    ['avif', 3],
  ] as const)('tags %s with the profile unchanged and leaves the pixel values alone', async (format, tolerance) => {
    const { icc, raw } = await p3();
    const out = await encodeRaw({ data: raw, width: 8, height: 4, channels: 3, icc }, { format, ...provenance });
    const meta = await sharp(out).metadata();
    expect(meta.icc?.equals(icc)).toBe(true);
    expect(meta.xmp?.toString()).toContain('compositeWithTrainedAlgorithmicMedia');
    const back = await sharp(out).keepIccProfile().removeAlpha().raw().toBuffer();
    for (let i = 0; i < raw.length; i++) expect(Math.abs(back[i]! - raw[i]!)).toBeLessThanOrEqual(tolerance);
  });

  it('puts the PNG profile in an iCCP chunk before the image data, beside the provenance iTXt', async () => {
    const { icc, raw } = await p3();
    const out = await encodeRaw({ data: raw, width: 8, height: 4, channels: 3, icc }, { format: 'png', ...provenance });
    const types = pngChunks(out).map((c) => c.type);
    expect(types.indexOf('iCCP')).toBeGreaterThan(0);
    expect(types.indexOf('iCCP')).toBeLessThan(types.indexOf('IDAT'));
    expect(types).toContain('iTXt');
    expect(types).not.toContain('sRGB');
  });

  it('writes no profile for a matte or an untagged image', async () => {
    const { icc } = await p3();
    const matte = await encodeRaw(
      { data: Buffer.alloc(32, 200), width: 8, height: 4, channels: 1, icc },
      { format: 'png', ...provenance },
    );
    expect((await sharp(matte).metadata()).icc).toBeUndefined();
    const plain = await encodeRaw(
      { data: Buffer.alloc(96, 90), width: 8, height: 4, channels: 3 },
      { format: 'jpeg', ...provenance },
    );
    expect((await sharp(plain).metadata()).icc).toBeUndefined();
  });
});

describe('keepsRgbProfile', () => {
  it('keeps RGB profiles on RGB pixels only', async () => {
    const { icc } = await p3();
    expect(keepsRgbProfile(icc, 'srgb')).toBe(true);
    expect(keepsRgbProfile(icc, 'rgb16')).toBe(true);
    expect(keepsRgbProfile(icc, 'cmyk')).toBe(false);
    expect(keepsRgbProfile(undefined, 'srgb')).toBe(false);
    expect(keepsRgbProfile(Buffer.from('not a profile'), 'srgb')).toBe(false);
    // A CMYK or grey profile (colour space at header bytes 16-19) is never kept, whatever the pixels.
    const cmykProfile = Buffer.from(icc);
    cmykProfile.write('CMYK', 16, 'latin1');
    expect(keepsRgbProfile(cmykProfile, 'srgb')).toBe(false);
  });
});

describe('srgbToProfile', () => {
  it("converts sRGB pixels into a profile's space, alpha untouched, so converting back gives them again", async () => {
    const { icc } = await p3();
    const srgb = Buffer.from([102, 51, 153, 128, 200, 30, 40, 255]);
    const converted = await srgbToProfile({ data: srgb, width: 2, height: 1, channels: 4 }, icc);
    // Display P3's numbers for rebeccapurple and a red: other numbers, the same colours.
    expect(Array.from(converted)).not.toEqual(Array.from(srgb));
    expect([converted[3], converted[7]]).toEqual([128, 255]);
    // Tagged with the profile as they are, then shown in sRGB as a colour-managed viewer does.
    const png = await sharp(converted, { raw: { width: 2, height: 1, channels: 4 } })
      .png()
      .toBuffer();
    const shown = await sharp(insertPngIcc(png, icc)).toColourspace('srgb').raw().toBuffer();
    for (let i = 0; i < 8; i++) expect([i, Math.abs(shown[i]! - srgb[i]!) <= 1]).toEqual([i, true]);
  });

  it('returns sRGB pixels unchanged without a profile', async () => {
    const srgb = Buffer.from([102, 51, 153]);
    expect((await srgbToProfile({ data: srgb, width: 1, height: 1, channels: 3 }, null)).equals(srgb)).toBe(true);
  });
});

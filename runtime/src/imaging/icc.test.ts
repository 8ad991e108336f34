import sharp from 'sharp';
import { encodeRaw } from './encode';
import { keepsRgbProfile } from './icc';
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

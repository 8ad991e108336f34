import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { insertPngChunk } from './png-xmp';

/**
 * ICC colour profiles carried from an input to its results. A photo from a phone or a camera set to Display P3
 * or Adobe RGB holds colours outside sRGB; converting it to sRGB would clip them, and dropping the profile would
 * make every viewer show it washed out. So decoders keep the pixels in the input's own space with its profile,
 * and the encoder tags the result with that profile, unchanged.
 */

/** The colour space an ICC profile's header declares (bytes 16-19, e.g. 'RGB', 'GRAY', 'CMYK'), or null. */
function iccColourSpace(icc: Buffer | undefined | null): string | null {
  if (!icc || icc.length < 128 || icc.toString('latin1', 36, 40) !== 'acsp') return null;
  return icc.toString('latin1', 16, 20).trim();
}

/**
 * Whether an input's pixels can stay in the space of its embedded profile: an RGB profile on RGB pixels (sharp's
 * `space` 'srgb' or 'rgb16'). CMYK and other profiles are converted to sRGB as before, and their profile dropped.
 */
export function keepsRgbProfile(icc: Buffer | undefined | null, space: string | undefined): icc is Buffer {
  return iccColourSpace(icc) === 'RGB' && (space === 'srgb' || space === 'rgb16');
}

/**
 * Adds an `iCCP` chunk right after IHDR of an encoded PNG that has none (the PNG specification puts it before
 * PLTE and IDAT; the profile is zlib-compressed under the name "ICC profile").
 */
export function insertPngIcc(png: Buffer, icc: Buffer): Buffer {
  const data = Buffer.concat([Buffer.from('ICC profile\0\0', 'latin1'), zlib.deflateSync(icc)]);
  return insertPngChunk(png, 'iCCP', data);
}

/**
 * Raw 8-bit sRGB pixels (3 or 4 channels; an alpha is left as it is) converted into the RGB profile `icc`. A
 * background colour or image is asked for in sRGB, while the result's pixels are in the input's own space and
 * tagged with its profile: written as they are, its numbers would be read in that profile and show other colours
 * (rebeccapurple on an Adobe RGB photo as 116,48,157). Converted, a viewer that converts the result back to its
 * screen shows the colour asked for. Without a profile (an sRGB result) the pixels are returned unchanged.
 * libvips reads an output profile from a file only, so the profile goes through a temporary one.
 */
export async function srgbToProfile(
  image: { data: Buffer; width: number; height: number; channels: 3 | 4 },
  icc: Buffer | null | undefined,
): Promise<Buffer> {
  if (!icc) return image.data;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'icc-'));
  try {
    const file = path.join(dir, 'profile.icc');
    await fs.writeFile(file, icc);
    const { width, height, channels } = image;
    return await sharp(image.data, { raw: { width, height, channels } })
      .withIccProfile(file)
      .raw({ depth: 'uchar' })
      .toBuffer();
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

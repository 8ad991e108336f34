import type { HeifDisplayTarget, LibHeif } from 'libheif-js/wasm-bundle';

/**
 * HEVC-coded HEIF (HEIC, what phones save) through libheif compiled to WebAssembly (npm `libheif-js`): sharp's
 * prebuilt libvips reads HEIF containers but has no HEVC decoder (the codec is patent-encumbered), so it can
 * report a HEIC's size and profile but not its pixels. libheif applies the container's rotation and mirroring
 * (irot/imir) itself, so the pixels come out upright; HEIF has no EXIF orientation to apply.
 */

let libheif: LibHeif | null = null;

/** Loaded on the first HEIC (about 2 MB of WebAssembly, compiled when loaded), not at worker start. */
async function load(): Promise<LibHeif> {
  // The bundle carries its .wasm inline; libheif-js/wasm would look for the file relative to the process's cwd.
  libheif ??= (await import('libheif-js/wasm-bundle')).default;
  return libheif;
}

export interface HeicPixels {
  /** 8-bit RGBA, interleaved, upright. */
  data: Buffer;
  width: number;
  height: number;
  hasAlpha: boolean;
}

/** Why a HEIC could not be decoded (the caller turns it into the user's message). */
export class HeicDecodeError extends Error {
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

/**
 * Decodes the primary image of a HEIC to RGBA. The size is checked against `maxPixels` from the container before
 * any pixel is decoded, so a bomb costs nothing.
 */
export async function decodeHeic(bytes: Buffer, maxPixels: number): Promise<HeicPixels> {
  const lib = await load();
  const decoder = new lib.HeifDecoder();
  const images = decoder.decode(bytes);
  try {
    const image = images.find((i) => i.is_primary()) ?? images[0];
    if (!image) throw new HeicDecodeError('no image in the HEIF container');
    const width = image.get_width();
    const height = image.get_height();
    if (!(width > 0 && height > 0)) throw new HeicDecodeError('the HEIF image has no size');
    if (width * height > maxPixels) throw new HeicDecodeError(`${width}x${height} is over the pixel limit`, true);
    const target: HeifDisplayTarget = { data: new Uint8ClampedArray(width * height * 4), width, height };
    const decoded = await new Promise<HeifDisplayTarget | null>((resolve) => image.display(target, resolve));
    if (!decoded) throw new HeicDecodeError('libheif could not decode the image data');
    return {
      data: Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength),
      width,
      height,
      hasAlpha: image.has_alpha_channel(),
    };
  } finally {
    for (const i of images) i.free();
    if (decoder.decoder) lib.heif_context_free(decoder.decoder);
  }
}

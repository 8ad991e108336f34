import sharp from 'sharp';

/** The long side of a result's preview: sharp on a 2x screen in the 48 px history slot and a 220 px project card. */
export const THUMBNAIL_SIDE = 256;

/**
 * A small lossy WebP of an encoded result for lists (request history, projects), so a list never downloads the
 * full-size image. The worker makes one beside each job result, the API beside each re-composed picture. Alpha is kept (cut-outs show their checkerboard), colours converted to sRGB (the list has no
 * colour management to rely on), metadata dropped; never enlarged.
 */
export function makeThumbnail(encoded: Buffer): Promise<Buffer> {
  return sharp(encoded, { limitInputPixels: false })
    .resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .webp({ quality: 75, alphaQuality: 80, effort: 2 })
    .toBuffer();
}

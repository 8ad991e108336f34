import sharp from 'sharp';
import { LIMITS } from '@imagestudio/contracts';
import { decodeHeic, insertPngIcc, keepsRgbProfile } from '@imagestudio/runtime/imaging';
import { Slots } from '../../lib/slots';

/**
 * The browser preview of a job's input: a WebP every browser shows, made just after the job is accepted
 * (jobs/input-previews.ts) for the inputs a browser cannot show itself (HEIC outside Safari, TIFF outside Safari,
 * AVIF in older browsers) and for large ones (a 40 MP photo is tens of megabytes to download just to fill a compare
 * view). Upright (EXIF orientation applied;
 * a HEIC's rotation is applied by libheif), in sRGB (a wide-gamut input is converted, so no browser needs to
 * colour-manage it), its long side at most INPUT_PREVIEW.maxSide.
 */
export const INPUT_PREVIEW = {
  /** The preview's long side at most, in pixels: sharp on a 2x screen in a compare view of 1024 CSS pixels. */
  maxSide: 2048,
  /** A file over this many bytes gets a preview even when its long side is short (an uncompressed PNG, say). */
  largeBytes: 4 * 1024 * 1024,
  /** WebP quality: a view of the input, not an input to further work. */
  quality: 85,
  /**
   * Previews made at once in this process. A decode holds the whole image in memory (a HEIC's WebAssembly
   * decoder a few hundred MB for 25 MP), so a batch of 50 HEICs or many users at once wait their turn instead.
   */
  concurrency: 2,
} as const;

/** Input files (by extension) that a browser may not show: Chrome and Firefox have no HEIC or TIFF decoder. */
const NOT_SHOWN = new Set(['heic', 'heif', 'avif', 'tif', 'tiff']);

/** What decides whether an input gets a preview: its stored extension, size in pixels (upright) and bytes. */
export interface PreviewCandidate {
  extension: string;
  width: number | null;
  height: number | null;
  bytes: number;
}

/** Whether an input gets a browser preview: a format browsers may not show, a long side over maxSide, or a big file. */
export function needsInputPreview(input: PreviewCandidate): boolean {
  if (NOT_SHOWN.has(input.extension.toLowerCase())) return true;
  if (input.bytes > INPUT_PREVIEW.largeBytes) return true;
  // A stored input of unknown size (jobs from before sizes were kept) is treated as large.
  if (input.width === null || input.height === null) return true;
  return Math.max(input.width, input.height) > INPUT_PREVIEW.maxSide;
}

export interface InputPreview {
  bytes: Buffer;
  width: number;
  height: number;
}

const FIT = {
  width: INPUT_PREVIEW.maxSide,
  height: INPUT_PREVIEW.maxSide,
  fit: 'inside',
  withoutEnlargement: true,
} as const;

/**
 * The preview of an input that passed the upload checks (read by `load` once its turn comes, so waiting previews
 * hold no image in memory); throws when it cannot be decoded after all.
 */
export function makeInputPreview(load: () => Promise<Buffer>): Promise<InputPreview> {
  return previewSlots.run(async () => render(await load()));
}

async function render(bytes: Buffer): Promise<InputPreview> {
  // The header again (cheap): it says whether libheif must decode, and which profile a HEIC's pixels are in.
  const meta = await sharp(bytes, { limitInputPixels: LIMITS.uploadMaxPixels }).metadata();
  const source = meta.format === 'heif' && meta.compression === 'hevc' ? await heicSource(bytes, meta) : bytes;
  // sharp decodes and encodes on libuv's thread pool, never on the event loop. With no keepIccProfile its
  // output is converted from the input's profile (P3, Adobe RGB, CMYK) to sRGB and carries no profile.
  const { data, info } = await sharp(source, { limitInputPixels: LIMITS.uploadMaxPixels, failOn: 'none', pages: 1 })
    .autoOrient()
    .resize(FIT)
    .webp({ quality: INPUT_PREVIEW.quality })
    .toBuffer({ resolveWithObject: true });
  return { bytes: data, width: info.width, height: info.height };
}

/**
 * A HEIC (which sharp's libvips cannot decode) as a small PNG in the HEIC's own colour profile: libheif decodes
 * in a thread of its own (runtime's decodeHeic, upright), sharp shrinks the pixels first so the PNG is cheap.
 */
async function heicSource(bytes: Buffer, meta: sharp.Metadata): Promise<Buffer> {
  const pixels = await decodeHeic(bytes, LIMITS.uploadMaxPixels);
  let image = sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: 4 } });
  if (!pixels.hasAlpha) image = image.removeAlpha();
  const png = await image.resize(FIT).png({ compressionLevel: 1 }).toBuffer();
  // The pixels are still in the HEIC's profile (Display P3 on iPhones): tagged, so the WebP step converts them.
  return keepsRgbProfile(meta.icc, meta.space) && meta.icc ? insertPngIcc(png, meta.icc) : png;
}

const previewSlots = new Slots(INPUT_PREVIEW.concurrency);

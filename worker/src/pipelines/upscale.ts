import sharp from 'sharp';
import type { ModelRunner } from '../inference';
import type { ModelEntry } from '../models';
import { ImageInputError, decodeImage } from '../imaging/decode';
import { type OutputFormat, encodeImage } from '../imaging/encode';
import { blendBand, blendTile, cropToNchw, planSpans, rampWeights } from '../imaging/tiles';

/**
 * Upscaling from encoded bytes to encoded bytes: the model over overlapping tiles blended into one RGB buffer,
 * alpha (when present) upscaled separately with a plain resize. The job handler adds S3 and progress.
 */

/** A loaded upscaling model and how to run it. */
export interface Upscaler {
  session: ModelRunner;
  model: ModelEntry;
  /**
   * Run the model and halve each tile's result with Lanczos3 (x2 from an x4 model without an x2 variant).
   * Done per tile, so a 4096 px input never holds its 16384 px intermediate.
   */
  halve?: boolean;
  /** Input pixels per tile side (default DEFAULT_TILE_SIZE); images up to this size run in one piece. */
  tileSize?: number;
  /**
   * Unreliable tile margin in input pixels, when smaller than the receptive radius (x4plus: 351 px would make
   * exact tiles huge): seams are then blended, an approximation rather than the untiled result.
   */
  margin?: number;
}

export interface UpscaleOptions {
  outputFormat: OutputFormat;
  /** Overrides the upscaler's tile size (tests). */
  tileSize?: number;
  /** Linear blend width between tiles, in input pixels, on top of the receptive-radius margins. */
  blend?: number;
}

/** Input pixels a Lanczos3 halving of an x4 result reaches: 3 output px = 6 px at x4 = 1.5 input px. */
const HALVING_REACH = 2;

/** Output scale and receptive radius (input pixels) of an upscaler as the tiling sees it. */
export function upscalerGeometry(upscaler: Upscaler): { scale: number; radius: number } {
  const pre = upscaler.model.preprocessing;
  if (pre.kind !== 'super-resolution') throw new Error(`${upscaler.model.id} is not an upscaling model`);
  const radius = upscaler.margin ?? pre.receptiveRadius;
  return upscaler.halve ? { scale: pre.scale / 2, radius: radius + HALVING_REACH } : { scale: pre.scale, radius };
}

/**
 * Tiles of at most 320 input pixels keep memory bounded whatever the image. Since the converter folds the
 * final upsampling into the last conv (no 48-channel tensor at output size), 512^2 x4 peaks at ~0.5 GB RSS with
 * 320 tiles and ~1.2 GB in one piece, and 320 was as fast as 384 or 512 on 2 cores (worker/README.md
 * "Upscaling"); even spans keep recomputed overlap near 10% at 512^2.
 */
export const DEFAULT_TILE_SIZE = 320;
export const DEFAULT_BLEND = 8;

/** Largest result, in pixels (~100 MP: a 300 MB RGB buffer before encoding); bigger requests are refused. */
export const MAX_OUTPUT_PIXELS = 10_000 * 10_000;

type Step = (stage: string) => Promise<void>;
type TileProgress = (done: number, total: number) => Promise<void>;

/**
 * Runs the model over the image in tiles; returns interleaved RGB bytes at scale x the size. Tiles overlap by
 * twice the receptive radius (+ blend), so the result equals an untiled run (tiles.ts).
 */
export async function upscaleRgb(
  upscaler: Upscaler,
  rgba: Uint8Array,
  width: number,
  height: number,
  options: { tileSize?: number; blend?: number } = {},
  onTile: TileProgress = async () => undefined,
  timings: Record<string, number> = {},
): Promise<Buffer> {
  const { session, model } = upscaler;
  const pre = model.preprocessing;
  if (pre.kind !== 'super-resolution') throw new Error(`${model.id} is not an upscaling model`);
  const { scale: s, radius: pad } = upscalerGeometry(upscaler);
  const overlap = 2 * pad + (options.blend ?? DEFAULT_BLEND);
  const tile = Math.max(options.tileSize ?? upscaler.tileSize ?? DEFAULT_TILE_SIZE, 2 * overlap);
  const xs = planSpans(width, tile, overlap);
  const ys = planSpans(height, tile, overlap);
  const outWidth = width * s;
  const out = Buffer.alloc(outWidth * height * s * 3);
  const inputName = model.inputs[0]!.name;
  const outputName = model.outputs[0]!.name;
  let done = 0;
  timings.infer = 0;
  timings.inferBare = 0;
  const flat = new Float32Array(tile * s).fill(1);
  for (const ySpan of ys) {
    const bandHeight = ySpan.length * s;
    const band = Buffer.alloc(outWidth * bandHeight * 3);
    for (const xSpan of xs) {
      const tensor = cropToNchw(rgba, width, xSpan.start, ySpan.start, xSpan.length, ySpan.length, pre.inputMax);
      const t = performance.now();
      const { outputs, ms } = await session.run(
        { [inputName]: { type: 'float32', data: tensor, dims: [1, 3, ySpan.length, xSpan.length] } },
        [outputName],
      );
      timings.infer += performance.now() - t;
      timings.inferBare += ms;
      let result = outputs[outputName]!.data as Float32Array;
      let valueMax: number = pre.outputMax;
      if (upscaler.halve) {
        const th = performance.now();
        result = await halveNchw(result, xSpan.length * pre.scale, ySpan.length * pre.scale, pre.outputMax);
        valueMax = 255;
        timings.halve = (timings.halve ?? 0) + performance.now() - th;
      }
      blendTile(
        band,
        outWidth,
        result,
        xSpan.length * s,
        bandHeight,
        xSpan.start * s,
        0,
        rampWeights(xSpan, s, pad),
        flat,
        valueMax,
      );
      await onTile(++done, xs.length * ys.length);
    }
    blendBand(out, outWidth, band, bandHeight, ySpan.start * s, rampWeights(ySpan, s, pad));
  }
  return out;
}

/** A float NCHW RGB tile (0..valueMax) halved with Lanczos3, as float NCHW 0..255. */
async function halveNchw(tile: Float32Array, width: number, height: number, valueMax: number): Promise<Float32Array> {
  const plane = width * height;
  const rgb = new Uint8ClampedArray(plane * 3);
  const k = 255 / valueMax;
  for (let i = 0; i < plane; i++) {
    rgb[i * 3] = tile[i]! * k;
    rgb[i * 3 + 1] = tile[plane + i]! * k;
    rgb[i * 3 + 2] = tile[2 * plane + i]! * k;
  }
  const w = width / 2;
  const h = height / 2;
  const small = await sharp(rgb, { raw: { width, height, channels: 3 } })
    .resize(w, h, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  const out = new Float32Array(w * h * 3);
  for (let i = 0; i < w * h; i++) {
    out[i] = small[i * 3]!;
    out[w * h + i] = small[i * 3 + 1]!;
    out[2 * w * h + i] = small[i * 3 + 2]!;
  }
  return out;
}

/** Decode -> tiles through the model -> alpha resized -> encode. */
export async function upscaleImage(
  upscaler: Upscaler,
  input: Buffer,
  options: UpscaleOptions,
  step: Step = async () => undefined,
  onTile?: TileProgress,
): Promise<{ data: Buffer; width: number; height: number; timings: Record<string, number> }> {
  const { scale } = upscalerGeometry(upscaler);
  const timings: Record<string, number> = {};
  let t = performance.now();
  const image = await decodeImage(input);
  if (image.width * image.height * scale * scale > MAX_OUTPUT_PIXELS) {
    throw new ImageInputError(
      `The upscaled image would be too large: at most ${MAX_OUTPUT_PIXELS / 1e6} megapixels. Use a smaller image or factor.`,
    );
  }
  timings.decode = performance.now() - t;
  await step('prepared');
  const rgb = await upscaleRgb(upscaler, image.data, image.width, image.height, options, onTile, timings);
  await step('inferred');
  const width = image.width * scale;
  const height = image.height * scale;
  t = performance.now();
  let pixels = rgb;
  let channels: 3 | 4 = 3;
  if (image.hasAlpha && options.outputFormat !== 'jpeg') {
    // Alpha is not what the model was trained on: a plain resize keeps edges where they were.
    const alpha = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
      .extractChannel(3)
      .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
      .raw()
      .toBuffer();
    pixels = await sharp(rgb, { raw: { width, height, channels: 3 } })
      .joinChannel(alpha, { raw: { width, height, channels: 1 } })
      .raw()
      .toBuffer();
    channels = 4;
  }
  const data = await encodeImage(
    { data: pixels, width, height, channels, icc: image.icc },
    options.outputFormat,
    'compositeWithTrainedAlgorithmicMedia',
    'Image Studio upscaling',
  );
  timings.encode = performance.now() - t;
  await step('encoded');
  return { data, width, height, timings };
}

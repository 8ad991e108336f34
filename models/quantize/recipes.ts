// Per model: how its int8 file is made from the fp32 one (which convolutions stay in fp32, calibration) and the
// quality gate `npm run models` holds it to. Chosen by measurement (models/README.md, "int8 models").
import path from 'node:path';
import type { QuantizeOptions } from './quantize';

/** Images the repository ships: the site's four example photos and the worker's test photo. */
const EXAMPLES = path.resolve(__dirname, '..', '..', 'client', 'public', 'examples');
export const EXAMPLE_PHOTOS = ['astronaut', 'chelsea', 'coffee', 'motorcycle'].map((n) =>
  path.join(EXAMPLES, `${n}.webp`),
);
export const HELD_OUT_PHOTO = path.resolve(
  __dirname,
  '..',
  '..',
  'worker',
  'src',
  'test-support',
  'fixtures',
  'coffee-300.png',
);

export interface MattingGate {
  kind: 'matting';
  /** Worst image: IoU of the masks thresholded at 0.5, int8 against fp32. */
  minIou: number;
  /** Worst image: mean absolute difference of the masks (0..1). */
  maxMeanAbsDiff: number;
}

export interface UpscaleGate {
  kind: 'upscale';
  /** Worst crop: PSNR of the int8 output against the fp32 output, both clamped and rounded to 8 bits. */
  minPsnrDb: number;
}

export interface Int8Recipe {
  /** The int8 model's manifest id. */
  id: string;
  /** The fp32 model it is made from (manifest id). */
  base: string;
  quantize: QuantizeOptions;
  /** Share of values clipped at each end when calibrating, in percent (calibrate.ts). */
  clipPercent: number;
  /** Calibration inputs: images, and for upscalers the crop size (each crop also as a JPEG q40 copy). */
  calibration: { images: readonly string[]; cropSize?: number };
  gate: MattingGate | UpscaleGate;
  /** Gate inputs (matting: whole images at the model size; upscalers: centre crops of gateCropSize). */
  gateImages: readonly string[];
  gateCropSize?: number;
}

export const INT8_RECIPES: readonly Int8Recipe[] = [
  {
    id: 'isnet-medium-int8',
    base: 'isnet-medium-fp32',
    quantize: {
      // Only the mask is kept as an output: the side outputs would each hold a Conv output in float and block
      // its fusion (a Conv whose output is a graph output is never fused), and the worker fetches only `output`.
      outputs: ['output'],
      // The input convolution (3 channels in) and the 64 -> 1 mask convolution: most sensitive. Two convolutions of
      // the low-resolution blocks: kept one at a time in fp32, they raised the worst mask IoU against fp32 (chelsea)
      // the most (models/README.md "int8 models"); whole blocks did no better and cost ~300 ms of fp32 convolution.
      keepFloat: ['/conv_in/Conv', '/side1/Conv', '/stage4/rebnconv1d/conv_s1/Conv', '/stage5d/rebnconv2/conv_s1/Conv'],
    },
    // Plain min/max: clipping 0.01% at each end lowered the worst IoU from 0.9900 to 0.9857 (whole blocks kept).
    clipPercent: 0,
    calibration: { images: EXAMPLE_PHOTOS },
    gate: { kind: 'matting', minIou: 0.99, maxMeanAbsDiff: 0.01 },
    gateImages: [...EXAMPLE_PHOTOS, HELD_OUT_PHOTO],
  },
];

export function int8Recipe(id: string): Int8Recipe | undefined {
  return INT8_RECIPES.find((r) => r.id === id);
}

/** Committed calibration table of a recipe (calibrate.ts writes it; building only reads it). */
export function calibrationFile(id: string): string {
  return path.join(__dirname, 'calibration', `${id}.json`);
}

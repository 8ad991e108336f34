/**
 * Which file of a model the worker loads: WORKER_PRECISION=auto|fp32|int8 (default auto).
 *
 * - auto: the int8 file (models/quantize) when the model has one, it is prepared, and the CPU has integer dot
 *   product instructions (AVX-512 VNNI, AVX-VNNI or AMX; without them onnxruntime's u8 x s8 kernels are slower than
 *   fp32 and can saturate) - but only where the model ends up on the CPU provider: GPU providers keep the fp32 file.
 * - int8: the int8 file whenever it is prepared, whatever the CPU and provider (for measurements); fp32 otherwise.
 * - fp32: always the fp32 file.
 *
 * A missing int8 file is not an error: the fp32 file is loaded and the reason logged.
 */
import type { Logger } from '@imagestudio/runtime';
import { int8Variant, type ModelEntry } from '../../../models/manifest';
import { cpuHasInt8Dot } from '../../../models/quantize/cpu';
import { preparedModelFile } from '../models';
import type { InferenceRuntime, ModelSession } from './runtime';

export type PrecisionSetting = 'auto' | 'fp32' | 'int8';
/** What a loaded model computes in: fp16 files (isnet-medium) report fp16. */
export type Precision = 'fp32' | 'fp16' | 'int8';

/** VNNI or AMX (models/quantize/cpu.ts): where onnxruntime's int8 convolutions are fast and exact. */
export { cpuHasInt8Dot };

export const precisionOf = (entry: ModelEntry): Precision =>
  entry.source.method === 'quantize-int8'
    ? 'int8'
    : entry.source.method === 'reassemble-chunks' && entry.id === 'isnet-medium'
      ? 'fp16'
      : 'fp32';

export interface PrecisionChoice {
  /** The entry to load first. */
  entry: ModelEntry;
  file: string;
  /** auto with a GPU provider listed: the int8 file, loaded only if the fp32 one ended up on the CPU. */
  int8Fallback?: { entry: ModelEntry; file: string };
  reason: string;
}

/** Chooses the file to load for `entry` (see the file comment); `fp32File` is its prepared file. */
export function choosePrecision(
  entry: ModelEntry,
  fp32File: string,
  options: { setting: PrecisionSetting; modelsDir: string; gpuListed: boolean; int8Cpu: boolean },
): PrecisionChoice {
  const fp32 = { entry, file: fp32File };
  if (options.setting === 'fp32') return { ...fp32, reason: 'WORKER_PRECISION=fp32' };
  const variant = int8Variant(entry.id);
  if (!variant) return { ...fp32, reason: 'no int8 model for it' };
  const file = preparedModelFile(options.modelsDir, variant);
  if (!file) return { ...fp32, reason: `${variant.file} is not prepared (run npm run models)` };
  const int8 = { entry: variant, file };
  if (options.setting === 'int8') return { ...int8, reason: 'WORKER_PRECISION=int8' };
  if (!options.int8Cpu) return { ...fp32, reason: 'the CPU has no VNNI or AMX' };
  if (options.gpuListed) return { ...fp32, int8Fallback: int8, reason: 'GPU providers keep fp32' };
  return { ...int8, reason: 'CPU with VNNI or AMX' };
}

export interface LoadedModel {
  session: ModelSession;
  /** The manifest entry actually loaded (the int8 variant or the model itself). */
  entry: ModelEntry;
  precision: Precision;
}

/** Loads `entry` at the precision WORKER_PRECISION asks for, logs the choice and returns what loaded. */
export async function loadWithPrecision(
  runtime: InferenceRuntime,
  entry: ModelEntry,
  fp32File: string,
  options: { setting: PrecisionSetting; modelsDir: string; logger?: Logger; int8Cpu?: boolean },
): Promise<LoadedModel> {
  const gpuListed = runtime.options.providers.some((p) => p !== 'cpu');
  const choice = choosePrecision(entry, fp32File, {
    setting: options.setting,
    modelsDir: options.modelsDir,
    gpuListed,
    int8Cpu: options.int8Cpu ?? cpuHasInt8Dot(),
  });
  let loaded = choice.entry;
  let session = await runtime.load(choice.file);
  let reason = choice.reason;
  if (choice.int8Fallback && session.provider === 'cpu') {
    // The GPU providers did not take it: on this CPU the int8 file is the faster one.
    await session.release();
    session = await runtime.load(choice.int8Fallback.file);
    loaded = choice.int8Fallback.entry;
    reason = 'no GPU provider loaded it; CPU with VNNI or AMX';
  }
  const precision = precisionOf(loaded);
  options.logger?.info(
    { model: entry.id, file: loaded.file, precision, provider: session.provider, setting: options.setting, reason },
    'model precision',
  );
  return { session, entry: loaded, precision };
}

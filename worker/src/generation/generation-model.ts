import fs from 'node:fs/promises';
import path from 'node:path';
import type { ExecutionProvider } from '@imagestudio/contracts';
import type { InferenceRuntime, ModelSession } from '../inference';
import { type ModelSignature, type ValueSignature, readModelSignature } from './model-signature';
import { type SchedulerConfig, type SchedulerKind, kindOfClass, parseSchedulerConfig } from './schedulers';
import type { LatentSizing } from './size';
import { ClipTokenizer } from './tokenizer/clip-tokenizer';

/** The operator's generation settings (GENERATION_* variables); unset ones follow the model's scheduler. */
export interface GenerationSettings {
  steps?: number;
  guidance?: number;
  scheduler?: SchedulerKind;
}

/** One ONNX part of the pipeline: its session and its declared inputs/outputs. */
export interface PipelineStage {
  session: ModelSession;
  signature: ModelSignature;
}

/** A diffusers-layout export loaded once at worker start and reused by every job. */
export interface GenerationModel {
  dir: string;
  tokenizer: ClipTokenizer;
  textEncoder: PipelineStage;
  unet: PipelineStage;
  vae: PipelineStage;
  schedulerConfig: SchedulerConfig;
  schedulerKind: SchedulerKind;
  steps: number;
  guidance: number;
  sizing: LatentSizing;
  /** Latents are divided by this before the VAE decoder (SD 1.x/2.x: 0.18215). */
  vaeScale: number;
  provider: ExecutionProvider;
}

const REQUIRED_FILES = [
  'model_index.json',
  'text_encoder/model.onnx',
  'unet/model.onnx',
  'vae_decoder/model.onnx',
  'tokenizer/vocab.json',
  'tokenizer/merges.txt',
  'scheduler/scheduler_config.json',
];

/** Checks the folder has every file of the diffusers ONNX layout; returns the missing ones. */
export async function missingModelFiles(dir: string): Promise<string[]> {
  const checks = await Promise.all(
    REQUIRED_FILES.map((f) =>
      fs.access(path.join(dir, f)).then(
        () => null,
        () => f,
      ),
    ),
  );
  return checks.filter((f): f is string => f !== null);
}

/** Loads tokenizer, scheduler config and the three ONNX models of a diffusers-layout export. */
export async function loadGenerationModel(
  dir: string,
  runtime: InferenceRuntime,
  settings: GenerationSettings = {},
): Promise<GenerationModel> {
  const missing = await missingModelFiles(dir);
  if (missing.length > 0) throw new Error(`${dir} is not a diffusers ONNX export: missing ${missing.join(', ')}`);
  const schedulerConfig = parseSchedulerConfig(await readJson(dir, 'scheduler/scheduler_config.json'));
  const schedulerKind = settings.scheduler ?? kindOfClass(schedulerConfig._class_name);
  if (!schedulerKind) {
    throw new Error(
      `scheduler ${schedulerConfig._class_name ?? '(unnamed)'} is not supported; set GENERATION_SCHEDULER to euler, euler-ancestral or lcm`,
    );
  }
  const unetConfig = await readJson(dir, 'unet/config.json', {});
  const vaeConfig = await readJson(dir, 'vae_decoder/config.json', {});
  const tokenizer = await ClipTokenizer.fromDir(path.join(dir, 'tokenizer'));

  const stage = async (name: string): Promise<PipelineStage> => {
    const file = path.join(dir, name, 'model.onnx');
    const signature = await readModelSignature(file);
    return { session: await runtime.load(file), signature };
  };
  const textEncoder = await stage('text_encoder');
  const unet = await stage('unet');
  const vae = await stage('vae_decoder');

  const sample = requireInput(unet, 'sample');
  const [h, w] = [sample.shape[2], sample.shape[3]];
  const dynamic = typeof h !== 'number' || typeof w !== 'number';
  const sampleSize = Number(unetConfig.sample_size);
  const nativeSide = typeof h === 'number' ? h : Number.isInteger(sampleSize) && sampleSize > 0 ? sampleSize : 64;
  const blocks = Array.isArray(unetConfig.block_out_channels) ? unetConfig.block_out_channels.length : 4;
  const vaeScale = Number(vaeConfig.scaling_factor);

  const defaults = defaultSettings(schedulerKind, schedulerConfig);
  return {
    dir,
    tokenizer,
    textEncoder,
    unet,
    vae,
    schedulerConfig,
    schedulerKind,
    steps: settings.steps ?? defaults.steps,
    guidance: settings.guidance ?? defaults.guidance,
    sizing: {
      native: { height: nativeSide, width: typeof w === 'number' ? w : nativeSide },
      dynamic,
      multiple: 2 ** Math.max(0, blocks - 1),
      pixelsPerLatent: 8,
    },
    vaeScale: Number.isFinite(vaeScale) && vaeScale > 0 ? vaeScale : 0.18215,
    provider: unet.session.provider,
  };
}

/**
 * Steps and guidance when the operator sets none: one unguided step for turbo-style exports (Euler with
 * trailing spacing), four for LCM, and the classic 25 steps at guidance 7.5 otherwise.
 */
export function defaultSettings(kind: SchedulerKind, config: SchedulerConfig): { steps: number; guidance: number } {
  if (kind === 'lcm') return { steps: 4, guidance: 1 };
  if (config.timestep_spacing === 'trailing') return { steps: 1, guidance: 0 };
  return { steps: 25, guidance: 7.5 };
}

/** The declared input `name` of a stage, or an error naming the model and what it has instead. */
export function requireInput(stage: PipelineStage, name: string): ValueSignature {
  const input = stage.signature.inputs.find((i) => i.name === name);
  if (!input) {
    throw new Error(
      `${stage.session.modelPath} has no input "${name}" (inputs: ${stage.signature.inputs.map((i) => i.name).join(', ')})`,
    );
  }
  return input;
}

async function readJson(
  dir: string,
  file: string,
  fallback?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  try {
    return JSON.parse(await fs.readFile(path.join(dir, file), 'utf8')) as Record<string, unknown>;
  } catch (err) {
    if (fallback && (err as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw new Error(`cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
}

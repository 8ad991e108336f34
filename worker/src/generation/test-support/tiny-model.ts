import fs from 'node:fs/promises';
import path from 'node:path';
import { type Dim, GraphBuilder } from '../../../../models/onnx';
import { writeTinyTokenizer } from './tiny-vocab';

/**
 * Builds a tiny random-weight Stable-Diffusion-layout ONNX export (what GENERATION_MODEL_DIR points at) for
 * tests and benchmarks: the same folder layout, input/output names, dtypes and shape rules as diffusers/optimum
 * exports, with a few hundred weights instead of a billion. Used by the worker, jobs-API and e2e tests:
 *
 *   const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gen-'));
 *   await buildTinyGenerationModel(dir);                      // dynamic batch and size, Euler (SD-Turbo-like)
 *   // then GENERATION_MODEL_DIR=dir for the worker
 */
export interface TinyModelOptions {
  /** 'dynamic' (any batch) or a fixed batch size for every model. */
  batch?: 'dynamic' | number;
  /** 'dynamic' (any latent size) or a fixed latent [h, w] for UNet and VAE. Native size is 8x8 latent (64x64 px). */
  spatial?: 'dynamic' | [number, number];
  /** diffusers scheduler class written into scheduler_config.json. */
  scheduler?: 'EulerDiscreteScheduler' | 'EulerAncestralDiscreteScheduler' | 'LCMScheduler';
  /** UNet timestep input dtype: optimum exports int64, older diffusers scripts float32. */
  timestepType?: 'int64' | 'float32';
  /** Tokenizer pad token ('!' as SD 2.x/Turbo, '<|endoftext|>' as SD 1.x). */
  padToken?: string;
  /** Seed of the random weights. */
  weightSeed?: number;
}

const HIDDEN = 16;
const TOKENS = 77;
const LATENT_CHANNELS = 4;
export const TINY_NATIVE_LATENT = 8;

/** Writes the tiny model folder into `dir` (created if missing) and returns `dir`. */
export async function buildTinyGenerationModel(dir: string, options: TinyModelOptions = {}): Promise<string> {
  const batch: Dim = options.batch === undefined || options.batch === 'dynamic' ? 'batch' : options.batch;
  const [h, w]: [Dim, Dim] = options.spatial && options.spatial !== 'dynamic' ? options.spatial : ['height', 'width'];
  const rand = weights(options.weightSeed ?? 1);
  const { vocab } = await writeTinyTokenizer(path.join(dir, 'tokenizer'), options.padToken ?? '!');
  const vocabSize = Math.max(...Object.values(vocab)) + 1;

  await writeModel(dir, 'text_encoder', textEncoder(batch, vocabSize, rand));
  await writeModel(dir, 'unet', unet(batch, h, w, options.timestepType ?? 'int64', rand));
  await writeModel(dir, 'vae_decoder', vaeDecoder(batch, h, w, rand));

  const scheduler = options.scheduler ?? 'EulerDiscreteScheduler';
  const schedulerConfig: Record<string, unknown> = {
    _class_name: scheduler,
    beta_start: 0.00085,
    beta_end: 0.012,
    beta_schedule: 'scaled_linear',
    num_train_timesteps: 1000,
    prediction_type: 'epsilon',
    steps_offset: 1,
    timestep_spacing: scheduler === 'LCMScheduler' ? 'leading' : 'trailing',
  };
  if (scheduler === 'LCMScheduler')
    Object.assign(schedulerConfig, { original_inference_steps: 50, timestep_scaling: 10 });
  await writeJson(dir, 'scheduler/scheduler_config.json', schedulerConfig);
  await writeJson(dir, 'unet/config.json', {
    sample_size: TINY_NATIVE_LATENT,
    in_channels: 4,
    block_out_channels: [8],
  });
  await writeJson(dir, 'vae_decoder/config.json', { scaling_factor: 0.18215, latent_channels: 4 });
  await writeJson(dir, 'model_index.json', {
    _class_name: 'OnnxStableDiffusionPipeline',
    text_encoder: ['diffusers', 'OnnxRuntimeModel'],
    unet: ['diffusers', 'OnnxRuntimeModel'],
    vae_decoder: ['diffusers', 'OnnxRuntimeModel'],
    tokenizer: ['transformers', 'CLIPTokenizer'],
    scheduler: ['diffusers', scheduler],
  });
  return dir;
}

/** input_ids int32 [B,77] -> last_hidden_state [B,77,D], pooler_output [B,D]. */
function textEncoder(batch: Dim, vocabSize: number, rand: (n: number, scale: number) => number[]): GraphBuilder {
  const g = new GraphBuilder('text_encoder');
  g.input('input_ids', 'int32', [batch, TOKENS]);
  const emb = g.node(
    'Gather',
    [g.float32('token_embedding', [vocabSize, HIDDEN], rand(vocabSize * HIDDEN, 1)), 'input_ids'],
    { axis: 0 },
  );
  const pos = g.node('Add', [emb, g.float32('position_embedding', [TOKENS, HIDDEN], rand(TOKENS * HIDDEN, 0.5))]);
  const proj = g.node('MatMul', [pos, g.float32('proj', [HIDDEN, HIDDEN], rand(HIDDEN * HIDDEN, 0.5))]);
  g.node('Tanh', [proj], {}, { output: 'last_hidden_state' });
  g.node('ReduceMean', ['last_hidden_state', g.int64('pool_axes', [1])], { keepdims: 0 }, { output: 'pooler_output' });
  g.output('last_hidden_state', 'float32', [batch, TOKENS, HIDDEN]);
  g.output('pooler_output', 'float32', [batch, HIDDEN]);
  return g;
}

/**
 * sample [B,4,h,w], timestep, encoder_hidden_states [B,77,D] -> out_sample [B,4,h,w]. The text and the
 * timestep both shift the output, so guidance and schedules change the result as in a real UNet.
 */
function unet(
  batch: Dim,
  h: Dim,
  w: Dim,
  timestepType: 'int64' | 'float32',
  rand: (n: number, scale: number) => number[],
): GraphBuilder {
  const g = new GraphBuilder('unet');
  g.input('sample', 'float32', [batch, LATENT_CHANNELS, h, w]);
  g.input('timestep', timestepType, [timestepType === 'int64' ? 'steps' : 1]);
  g.input('encoder_hidden_states', 'float32', [batch, TOKENS, HIDDEN]);
  const conv = g.node(
    'Conv',
    ['sample', g.float32('conv_w', [4, 4, 3, 3], rand(144, 0.3)), g.float32('conv_b', [4], rand(4, 0.1))],
    {
      kernel_shape: [3, 3],
      pads: [1, 1, 1, 1],
    },
  );
  const text = g.node('ReduceMean', ['encoder_hidden_states', g.int64('text_axes', [1])], { keepdims: 0 });
  const cond = g.node('MatMul', [text, g.float32('cond_w', [HIDDEN, 4], rand(HIDDEN * 4, 2))]);
  const cond4 = g.node('Unsqueeze', [cond, g.int64('cond_axes', [2, 3])]);
  const t = g.node('Cast', ['timestep'], { to: 1 });
  const t4 = g.node('Reshape', [
    g.node('Mul', [t, g.float32('t_scale', [], [0.001])]),
    g.int64('t_shape', [-1, 1, 1, 1]),
  ]);
  const mixed = g.node('Add', [g.node('Add', [conv, cond4]), t4]);
  g.node('Tanh', [mixed], {}, { output: 'out_sample' });
  g.output('out_sample', 'float32', [batch, LATENT_CHANNELS, h, w]);
  return g;
}

/** latent_sample [B,4,h,w] -> sample [B,3,8h,8w] in [-1, 1]. */
function vaeDecoder(batch: Dim, h: Dim, w: Dim, rand: (n: number, scale: number) => number[]): GraphBuilder {
  const g = new GraphBuilder('vae_decoder');
  g.input('latent_sample', 'float32', [batch, LATENT_CHANNELS, h, w]);
  const channels = 3 * 64;
  const conv = g.node(
    'Conv',
    [
      'latent_sample',
      g.float32('w', [channels, 4, 1, 1], rand(channels * 4, 0.1)),
      g.float32('b', [channels], rand(channels, 0.1)),
    ],
    {
      kernel_shape: [1, 1],
    },
  );
  const up = g.node('DepthToSpace', [conv], { blocksize: 8, mode: 'DCR' });
  g.node('Tanh', [up], {}, { output: 'sample' });
  const scaled = (d: Dim) => (typeof d === 'number' ? d * 8 : `${d}_x8`);
  g.output('sample', 'float32', [batch, 3, scaled(h), scaled(w)]);
  return g;
}

async function writeModel(dir: string, name: string, graph: GraphBuilder): Promise<void> {
  await fs.mkdir(path.join(dir, name), { recursive: true });
  await fs.writeFile(path.join(dir, name, 'model.onnx'), graph.toModel({ opset: 18 }));
}

async function writeJson(dir: string, file: string, value: unknown): Promise<void> {
  await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
  await fs.writeFile(path.join(dir, file), JSON.stringify(value, null, 2));
}

/** Deterministic uniform weights in [-scale, scale] (a small LCG is plenty for test weights). */
function weights(seed: number): (n: number, scale: number) => number[] {
  let state = seed >>> 0 || 1;
  return (n, scale) =>
    Array.from({ length: n }, () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return (state / 4294967296 - 0.5) * 2 * scale;
    });
}

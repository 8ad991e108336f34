import { runRows, stack } from './batching';
import { type GenerationModel, requireInput } from './generation-model';
import { SeededRandom } from './rng';
import { createScheduler } from './schedulers';
import { type SizePlan, planSize } from './size';
import { makeTensor, readFloats } from './tensors';

export interface GenerateRequest {
  prompt: string;
  negativePrompt?: string;
  /** 1 to 4 images; image n uses seed + n. */
  count: number;
  seed: number;
  width: number;
  height: number;
}

export interface GenerateHooks {
  /** Called before every denoising step; throws to stop the job (cancellation). */
  beforeStep?(step: number, total: number): Promise<void>;
  /** Called after every denoising step with the number of steps done. */
  onStep?(done: number, total: number): Promise<void>;
}

/** One generated image at the generated (not yet resized) size: RGB, 3 bytes per pixel, rows top to bottom. */
export interface GeneratedImage {
  seed: number;
  width: number;
  height: number;
  rgb: Buffer;
}

export interface GenerateOutput {
  images: GeneratedImage[];
  plan: SizePlan;
  /** Whether classifier-free guidance ran (guidance > 1 and the UNet has no guidance embedding). */
  guided: boolean;
  steps: number;
  /** Milliseconds: text (encoder), denoise (whole loop), unet (inside onnxruntime), decode (VAE + pixels). */
  timings: { text: number; denoise: number; unet: number; decode: number };
}

/**
 * Text-to-image with a Stable-Diffusion-family export: CLIP tokens -> text encoder -> scheduler loop over the
 * UNet (classifier-free guidance with the negative prompt as the unconditional input when guidance > 1) ->
 * VAE decoder -> RGB pixels. Each image has its own seeded generator, so an image depends only on its seed,
 * the prompt and the settings, not on how many images were asked for or how they were batched.
 */
export async function generateImages(
  model: GenerationModel,
  request: GenerateRequest,
  hooks: GenerateHooks = {},
): Promise<GenerateOutput> {
  const plan = planSize({ width: request.width, height: request.height }, model.sizing);
  const { height: lh, width: lw } = plan.latent;
  const scheduler = createScheduler(model.schedulerKind, model.schedulerConfig, model.steps);
  const sample = requireInput(model.unet, 'sample');
  const channels = typeof sample.shape[1] === 'number' ? sample.shape[1] : 4;
  const timestepInput = requireInput(model.unet, 'timestep');
  const hiddenInput = requireInput(model.unet, 'encoder_hidden_states');
  const guidanceEmbedding = model.unet.signature.inputs.find((i) => i.name === 'timestep_cond');
  const guided = model.guidance > 1 && !guidanceEmbedding;

  // Text: the prompt, plus the negative prompt as the unconditional input when guiding.
  let t0 = performance.now();
  const prompts = guided ? [request.prompt, request.negativePrompt ?? ''] : [request.prompt];
  const embeddings = await encodeText(model, prompts);
  const textMs = performance.now() - t0;
  const tokens = model.tokenizer.maxLength;
  const hidden = embeddings[0]!.length / tokens;

  // Latents: one generator per image, seeded seed + n, drawn in NCHW order.
  const rngs = Array.from({ length: request.count }, (_, n) => new SeededRandom(request.seed + n));
  const cells = channels * lh * lw;
  let latents = rngs.map((rng) => {
    const noise = rng.gaussian(cells);
    for (let i = 0; i < cells; i += 1) noise[i]! *= scheduler.initNoiseSigma;
    return noise;
  });

  t0 = performance.now();
  let unetMs = 0;
  const total = scheduler.timesteps.length;
  // Row r of the UNet batch: image floor(r / per) with the unconditional (0) or conditional (1) text.
  const per = guided ? 2 : 1;
  const condEmbedding = guided ? [embeddings[1]!, embeddings[0]!] : [embeddings[0]!];
  for (let step = 0; step < total; step += 1) {
    await hooks.beforeStep?.(step, total);
    const scale = scheduler.inputScale(step);
    const timestep = scheduler.timesteps[step]!;
    const { rows, ms } = await runRows(
      model.unet,
      request.count * per,
      (indices) => {
        const n = indices.length;
        const feeds = {
          sample: makeTensor(
            sample.type,
            stack(
              latents,
              indices.map((r) => Math.floor(r / per)),
              scale,
            ),
            [n, channels, lh, lw],
          ),
          timestep: makeTensor(
            timestepInput.type,
            new Array(timestepCount(timestepInput.shape, n)).fill(timestep),
            timestepDims(timestepInput.shape, n),
          ),
          encoder_hidden_states: makeTensor(
            hiddenInput.type,
            stack(
              condEmbedding,
              indices.map((r) => r % per),
            ),
            [n, tokens, hidden],
          ),
        };
        if (!guidanceEmbedding) return feeds;
        const dim = typeof guidanceEmbedding.shape[1] === 'number' ? guidanceEmbedding.shape[1] : 256;
        const w = guidanceScaleEmbedding(model.guidance, dim);
        return {
          ...feeds,
          timestep_cond: makeTensor(
            guidanceEmbedding.type,
            stack(
              [w],
              indices.map(() => 0),
            ),
            [n, dim],
          ),
        };
      },
      model.unet.signature.outputs[0]?.name ?? 'out_sample',
      readFloats,
    );
    unetMs += ms;
    latents = latents.map((latent, image) => {
      let eps = rows[image * per]!;
      if (guided) {
        const [uncond, cond] = [rows[image * 2]!, rows[image * 2 + 1]!];
        eps = new Float32Array(cells);
        for (let i = 0; i < cells; i += 1) eps[i] = uncond[i]! + model.guidance * (cond[i]! - uncond[i]!);
      }
      return scheduler.step(step, eps, latent, rngs[image]!);
    });
    await hooks.onStep?.(step + 1, total);
  }
  const denoiseMs = performance.now() - t0;

  t0 = performance.now();
  const images = await decode(model, latents, channels, lh, lw, request.seed);
  return {
    images,
    plan,
    guided,
    steps: total,
    timings: { text: textMs, denoise: denoiseMs, unet: unetMs, decode: performance.now() - t0 },
  };
}

async function encodeText(model: GenerationModel, prompts: string[]): Promise<Float32Array[]> {
  const ids = requireInput(model.textEncoder, 'input_ids');
  const tokens = prompts.map((p) => model.tokenizer.encode(p));
  const length = model.tokenizer.maxLength;
  const outputName = model.textEncoder.signature.outputs.some((o) => o.name === 'last_hidden_state')
    ? 'last_hidden_state'
    : (model.textEncoder.signature.outputs[0]?.name ?? 'last_hidden_state');
  const { rows } = await runRows(
    model.textEncoder,
    prompts.length,
    (indices) => ({
      input_ids: makeTensor(
        ids.type,
        indices.flatMap((i) => tokens[i]!),
        [indices.length, length],
      ),
    }),
    outputName,
    readFloats,
  );
  return rows;
}

async function decode(
  model: GenerationModel,
  latents: Float32Array[],
  channels: number,
  lh: number,
  lw: number,
  seed: number,
): Promise<GeneratedImage[]> {
  const input = requireInput(model.vae, 'latent_sample');
  const { rows } = await runRows(
    model.vae,
    latents.length,
    (indices) => ({
      latent_sample: makeTensor(input.type, stack(latents, indices, 1 / model.vaeScale), [
        indices.length,
        channels,
        lh,
        lw,
      ]),
    }),
    model.vae.signature.outputs[0]?.name ?? 'sample',
    readFloats,
  );
  const [height, width] = [lh * model.sizing.pixelsPerLatent, lw * model.sizing.pixelsPerLatent];
  return rows.map((planar, n) => ({ seed: seed + n, width, height, rgb: toRgb(planar, width, height) }));
}

/** VAE output [3, H, W] in [-1, 1] -> interleaved 8-bit RGB. */
export function toRgb(planar: Float32Array, width: number, height: number): Buffer {
  const plane = width * height;
  if (planar.length !== plane * 3) throw new Error(`VAE output has ${planar.length} values, expected ${plane * 3}`);
  const out = Buffer.alloc(plane * 3);
  for (let c = 0; c < 3; c += 1) {
    for (let i = 0; i < plane; i += 1) {
      const v = Math.min(1, Math.max(0, planar[c * plane + i]! / 2 + 0.5));
      out[i * 3 + c] = Math.round(v * 255);
    }
  }
  return out;
}

/** The timestep input's dims: a scalar, one value shared by the batch, or one per row. */
function timestepDims(shape: readonly (number | string)[], rows: number): number[] {
  if (shape.length === 0) return [];
  return [shape[0] === 1 ? 1 : rows];
}

function timestepCount(shape: readonly (number | string)[], rows: number): number {
  return timestepDims(shape, rows)[0] ?? 1;
}

/** LCM's guidance embedding: sinusoidal features of w = (guidance - 1) * 1000, as diffusers computes it. */
export function guidanceScaleEmbedding(guidance: number, dim: number): Float32Array {
  const w = (guidance - 1) * 1000;
  const half = dim / 2;
  const out = new Float32Array(dim);
  const factor = Math.log(10000) / (half - 1);
  for (let i = 0; i < half; i += 1) {
    const arg = w * Math.exp(-factor * i);
    out[i] = Math.sin(arg);
    out[half + i] = Math.cos(arg);
  }
  return out;
}

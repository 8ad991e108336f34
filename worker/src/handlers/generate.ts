import { UnrecoverableError } from 'bullmq';
import sharp from 'sharp';
import { applyStyle, formatJobStage, type GeneratePayload, type JobResultFile } from '@imagestudio/contracts';
import { loadGenerationModel, missingModelFiles, type GenerationModel } from '../generation/generation-model';
import { type GeneratedImage, generateImages } from '../generation/pipeline';
import { encodeImage } from '../imaging/encode';
import { roundTimings, uploadResult } from './job-io';
import type { JobContext, ToolLoader } from './types';

/**
 * Progress: text encoding done at 5%, the denoising loop fills 5-85% (stage "processing n/steps"), decoding
 * 90% ("encoding" the PNGs next), PNGs ready 95% ("saving"), uploads 100%.
 */
const PERCENTS = { encoded: 5, loopEnd: 85, decoded: 90, pngs: 95, uploaded: 100 };

/**
 * Loads the operator's diffusers ONNX export (GENERATION_MODEL_DIR) once. Without it, or with an incomplete
 * folder, the tool is unavailable, so the worker does not advertise `generate` and the API charges nothing.
 */
export const loadGenerateTool: ToolLoader<'generate'> = async ({ config, runtime }) => {
  const dir = config.GENERATION_MODEL_DIR;
  if (!dir) return { unavailable: 'GENERATION_MODEL_DIR is not set' };
  const missing = await missingModelFiles(dir);
  if (missing.length > 0) return { unavailable: `${dir} lacks ${missing.join(', ')}` };
  const model = await loadGenerationModel(dir, runtime, {
    steps: config.GENERATION_STEPS,
    guidance: config.GENERATION_GUIDANCE,
    scheduler: config.GENERATION_SCHEDULER,
  });
  return {
    provider: model.provider,
    close: async () => {
      await Promise.all([model.textEncoder.session.release(), model.unet.session.release(), model.vae.session.release()]);
    },
    run: (ctx) => runGenerateJob(model, ctx),
  };
};

/** One generate job: style template, pipeline with per-step progress and cancellation, PNGs to S3. */
export async function runGenerateJob(model: GenerationModel, ctx: JobContext<'generate'>) {
  const payload: GeneratePayload = ctx.payload;
  let styled: { prompt: string; negativePrompt: string };
  try {
    styled = applyStyle(payload.style, payload.prompt, payload.negativePrompt);
  } catch {
    throw new UnrecoverableError(`Unknown style "${payload.style}".`);
  }
  const started = performance.now();
  const out = await generateImages(
    model,
    { ...styled, count: payload.count, seed: payload.seed, width: payload.width, height: payload.height },
    {
      beforeStep: async (step) => {
        if (step === 0) await ctx.progress(PERCENTS.encoded, 'processing');
        await ctx.checkCancelled();
      },
      onStep: async (done, total) => {
        const span = PERCENTS.loopEnd - PERCENTS.encoded;
        await ctx.progress(PERCENTS.encoded + (span * done) / total, formatJobStage('processing', done, total));
      },
    },
  );
  await ctx.progress(PERCENTS.decoded, 'encoding');
  await ctx.checkCancelled();

  let t = performance.now();
  const tool = `imagestudio generate (${model.schedulerKind}, ${out.steps} steps)`;
  const pngs = await Promise.all(out.images.map((image) => toPng(image, payload.width, payload.height, tool)));
  const encodeMs = performance.now() - t;
  await ctx.progress(PERCENTS.pngs, 'saving');
  t = performance.now();
  const files: JobResultFile[] = [];
  for (const [n, png] of pngs.entries()) {
    const file = await uploadResult(ctx, n, { data: png, width: payload.width, height: payload.height }, 'png');
    files.push({ ...file, seed: out.images[n]!.seed });
  }
  const uploadMs = performance.now() - t;
  await ctx.progress(PERCENTS.uploaded, 'saving');

  const notes = [`${out.steps} ${model.schedulerKind} steps, guidance ${out.guided ? model.guidance : 'off'}`];
  if (out.plan.note) notes.push(out.plan.note);
  return {
    files,
    provider: model.provider,
    timings: roundTimings({
      text: out.timings.text,
      denoise: out.timings.denoise,
      unet: out.timings.unet,
      decode: out.timings.decode,
      encode: encodeMs,
      upload: uploadMs,
      total: performance.now() - started,
    }),
    notes,
  };
}

/** Resizes (centre-cropping any aspect difference) to the requested size and encodes a provenance-tagged PNG. */
async function toPng(image: GeneratedImage, width: number, height: number, tool: string): Promise<Buffer> {
  let rgb = image.rgb;
  if (image.width !== width || image.height !== height) {
    rgb = await sharp(image.rgb, { raw: { width: image.width, height: image.height, channels: 3 } })
      .resize(width, height, { fit: 'cover', kernel: 'lanczos3' })
      .raw()
      .toBuffer();
  }
  return encodeImage({ data: rgb, width, height, channels: 3 }, 'png', 'trainedAlgorithmicMedia', tool);
}

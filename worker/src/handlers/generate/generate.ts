import path from 'node:path';
import { formatJobStage, type GeneratePayload, type JobResultFile } from '@imagestudio/contracts';
import { loadGenerationModel, missingModelFiles, type GenerationModel } from '../../generation/generation-model';
import { generateImages } from '../../generation/pipeline';
import { generatedPng, styledPrompt } from './generate-common';
import { loadRemoteGenerateTool } from './generate-remote';
import { previewKeys, roundTimings, uploadResult } from '../job-io';
import type { JobContext, ToolLoader } from '../types';

/**
 * Progress: text encoding done at 5%, the denoising loop fills 5-85% (stage "processing n/steps"), decoding
 * 90% ("encoding" the PNGs next), PNGs ready 95% ("saving"), uploads 100%.
 */
const PERCENTS = { encoded: 5, loopEnd: 85, decoded: 90, pngs: 95, uploaded: 100 };

/**
 * Text-to-image through one of two backends: the operator's ONNX export (GENERATION_MODEL_DIR) or a hosted
 * OpenAI-compatible images API (GENERATION_API_URL); GENERATION_BACKEND picks when both are set. With neither
 * the tool is unavailable, so the worker does not advertise `generate` and the API charges nothing.
 */
export const loadGenerateTool: ToolLoader<'generate'> = async (deps) => {
  if (deps.config.GENERATION_BACKEND === 'api') return loadRemoteGenerateTool(deps);
  if (!deps.config.GENERATION_MODEL_DIR)
    return { unavailable: 'neither GENERATION_MODEL_DIR nor GENERATION_API_URL is set' };
  return loadOnnxGenerateTool(deps);
};

/** Loads the operator's diffusers ONNX export once; an incomplete folder makes the tool unavailable. */
const loadOnnxGenerateTool: ToolLoader<'generate'> = async ({ config, runtime }) => {
  const dir = config.GENERATION_MODEL_DIR!;
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
      await Promise.all([
        model.textEncoder.session.release(),
        model.unet.session.release(),
        model.vae.session.release(),
      ]);
    },
    run: (ctx) => runGenerateJob(model, ctx),
  };
};

/** One generate job: style template, pipeline with per-step progress and cancellation, PNGs to S3. */
export async function runGenerateJob(model: GenerationModel, ctx: JobContext<'generate'>) {
  const payload: GeneratePayload = ctx.payload;
  const styled = styledPrompt(payload);
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
  const pngs = await Promise.all(
    out.images.map((image) =>
      generatedPng(
        { data: image.rgb, width: image.width, height: image.height, channels: 3 },
        payload.width,
        payload.height,
        tool,
      ),
    ),
  );
  const encodeMs = performance.now() - t;
  await ctx.progress(PERCENTS.pngs, 'saving');
  t = performance.now();
  const files: JobResultFile[] = [];
  for (const [n, png] of pngs.entries()) {
    const file = await uploadResult(ctx, n, { data: png, width: payload.width, height: payload.height }, 'png', {
      // The operator's export is known by its folder's name (Content Credentials' software agent).
      agent: `onnx:${path.basename(model.dir)}`,
    });
    files.push({ ...file, seed: out.images[n]!.seed });
  }
  const uploadMs = performance.now() - t;
  await ctx.progress(PERCENTS.uploaded, 'saving');

  const notes = [`${out.steps} ${model.schedulerKind} steps, guidance ${out.guided ? model.guidance : 'off'}`];
  if (out.plan.note) notes.push(out.plan.note);
  return {
    files,
    thumbnailKeys: previewKeys(ctx, files),
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

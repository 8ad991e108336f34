import { UnrecoverableError } from 'bullmq';
import { DEFAULT_UPSCALE_MODEL, UPSCALE_MODELS, formatJobStage, type UpscaleModel } from '@imagestudio/contracts';
import { loadWithPrecision, type ModelSession, type Precision } from '../inference';
import { type ModelEntry, modelsForTask, preparedModelFile } from '../models';
import { DEFAULT_TILE_SIZE, type Upscaler, upscaleImage } from '../pipelines/upscale';
import { warmUp, warmUpImage } from '../pipelines/warm-up';
import { runSingleImageJob } from './job-io';
import type { ToolDeps, ToolLoader } from './types';

const PERCENTS = { downloaded: 5, prepared: 10, inferred: 85, encoded: 95, uploaded: 100 };

/**
 * What each user-facing model runs (manifest ids, first prepared one wins). x2 without an x2 variant runs the x4
 * model and halves each tile with Lanczos3. Tile sizes: the SRVGG models need 2 x 34 (18) px of overlap for
 * exact seams, so they take 512 px tiles (a 512 px image runs in one piece), photo 768 (below); ESRGAN slim keeps
 * its measured 320.
 * x4plus's receptive radius (351 px) would make exact tiles huge: it blends seams over a 32 px margin instead,
 * and it is offered only where a GPU provider loaded it (~15 s per 320 px tile on 2 CPU cores).
 */
export const UPSCALE_CHOICES: Record<
  UpscaleModel,
  { x2: readonly string[]; x4: readonly string[]; tileSize: number; margin?: number; gpuOnly?: boolean }
> = {
  // 768: fewer, larger tiles recompute less overlap (a 1024^2 x2 computes 1.22 instead of 1.40 MP of input, a
  // 4096^2 one 20.3 instead of 23.2); 1024^2 x2 took 34-37 s instead of 42-53 s (2 alternating pairs under load),
  // peak RSS 732-772 instead of 522-543 MiB; a full 4096^2 x2 run peaked at 1.52 GiB (659 s under load 5).
  photo: { x2: [], x4: ['realesr-general-x4v3'], tileSize: 768 },
  illustration: { x2: ['realesr-animevideov3-x2'], x4: ['realesr-animevideov3-x4'], tileSize: 512 },
  fast: {
    x2: ['esrgan-slim-x2', 'esrgan-medium-x2'],
    x4: ['esrgan-slim-x4', 'esrgan-medium-x4'],
    tileSize: DEFAULT_TILE_SIZE,
  },
  'photo-max': { x2: [], x4: ['realesrgan-x4plus'], tileSize: 256, margin: 32, gpuOnly: true },
};

/** The first prepared model among `ids`, with its file. */
export function firstPrepared(
  modelsDir: string,
  ids: readonly string[],
): { model: ModelEntry; file: string } | undefined {
  for (const id of ids) {
    const model = modelsForTask('upscale').find((m) => m.id === id);
    const file = model && preparedModelFile(modelsDir, model);
    if (model && file) return { model, file };
  }
  return undefined;
}

type LoadedUpscaler = Upscaler & { session: ModelSession; precision: Precision };
type Runs = Map<UpscaleModel, Map<2 | 4, LoadedUpscaler>>;

/** Loads every choice whose files are prepared (each model file once); GPU-only ones only on a GPU provider. */
export async function loadUpscalers({
  config,
  runtime,
  logger,
}: ToolDeps): Promise<{ runs: Runs; sessions: ModelSession[] }> {
  const sessions = new Map<string, { session: ModelSession; entry: ModelEntry; precision: Precision }>();
  const runs: Runs = new Map();
  const gpuListed = config.WORKER_EXECUTION_PROVIDERS.some((p) => p !== 'cpu');
  for (const choice of UPSCALE_MODELS) {
    const spec = UPSCALE_CHOICES[choice];
    if (spec.gpuOnly && !gpuListed) continue;
    const x4 = firstPrepared(config.MODELS_DIR, spec.x4);
    const x2 = firstPrepared(config.MODELS_DIR, spec.x2);
    const byFactor = new Map<2 | 4, LoadedUpscaler>();
    for (const [factor, chosen, halve] of [
      [4, x4, false],
      [2, x2 ?? x4, !x2],
    ] as const) {
      if (!chosen) continue;
      let loaded = sessions.get(chosen.model.id);
      if (!loaded) {
        // The int8 file where WORKER_PRECISION and the CPU call for it (inference/precision.ts).
        loaded = await loadWithPrecision(runtime, chosen.model, chosen.file, {
          setting: config.WORKER_PRECISION,
          modelsDir: config.MODELS_DIR,
          logger,
        });
        if (spec.gpuOnly && loaded.session.provider === 'cpu') {
          logger.info({ tool: 'upscale', model: choice }, 'model not offered: it needs a GPU provider');
          await loaded.session.release();
          break;
        }
        sessions.set(chosen.model.id, loaded);
      }
      const { session, entry, precision } = loaded;
      byFactor.set(factor, { session, precision, model: entry, halve, tileSize: spec.tileSize, margin: spec.margin });
    }
    if (byFactor.size > 0) runs.set(choice, byFactor);
  }
  return { runs, sessions: [...sessions.values()].map((l) => l.session) };
}

/** Loads the upscaling models once; unavailable when none is prepared. */
export const loadUpscaleTool: ToolLoader<'upscale'> = async (deps) => {
  const { config, logger } = deps;
  const { runs, sessions } = await loadUpscalers(deps);
  const first = sessions[0];
  if (!first) return { unavailable: 'no upscaling model is prepared (run npm run models)' };
  if (config.WORKER_WARMUP_RUNS > 0) {
    // One tile of each model file: the shape most of the work of a large image runs at.
    const warmed = new Set<ModelSession>();
    for (const [choice, byFactor] of runs) {
      for (const [factor, upscaler] of byFactor) {
        if (warmed.has(upscaler.session)) continue;
        warmed.add(upscaler.session);
        const image = await warmUpImage(DEFAULT_TILE_SIZE, DEFAULT_TILE_SIZE);
        const ms = await warmUp(config.WORKER_WARMUP_RUNS, () =>
          upscaleImage(upscaler, image, { outputFormat: 'png' }),
        );
        logger.info({ tool: 'upscale', model: choice, factor, file: upscaler.model.id, ms }, 'warmed up');
      }
    }
  }
  return {
    provider: first.provider,
    // The default model's precision (the one most jobs run); each job's notes name its own file.
    precision: (runs.get(DEFAULT_UPSCALE_MODEL) ?? [...runs.values()][0])?.get(4)?.precision,
    models: [...runs.keys()],
    close: async () => {
      for (const session of sessions) await session.release();
    },
    run: async (ctx) => {
      const { factor, model } = ctx.payload;
      const upscaler = runs.get(model)?.get(factor);
      if (!upscaler)
        throw new UnrecoverableError(`Upscaling x${factor} with the ${model} model is not available on this worker.`);
      const onTile = async (done: number, total: number) => {
        await ctx.progress(
          PERCENTS.prepared + ((PERCENTS.inferred - PERCENTS.prepared) * done) / total,
          formatJobStage('processing', done, total),
        );
        await ctx.checkCancelled();
      };
      const via = upscaler.halve ? ` at x4, halved with Lanczos3` : '';
      return runSingleImageJob(
        ctx,
        PERCENTS,
        (input, step) => upscaleImage(upscaler, input, { outputFormat: ctx.payload.outputFormat }, step, onTile),
        {
          provider: upscaler.session.provider,
          notes: [`model ${model} (${upscaler.model.id}${via})`],
        },
      );
    },
  };
};

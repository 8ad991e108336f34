import { UnrecoverableError } from 'bullmq';
import { formatJobStage } from '@imagestudio/contracts';
import type { ModelSession } from '../inference';
import { type ModelEntry, modelsForTask, preparedModelFile } from '../models';
import { DEFAULT_TILE_SIZE, upscaleImage } from '../pipelines/upscale';
import { warmUp, warmUpImage } from '../pipelines/warm-up';
import { runSingleImageJob } from './job-io';
import type { ToolLoader } from './types';

const PERCENTS = { downloaded: 5, prepared: 10, inferred: 85, encoded: 95, uploaded: 100 };

/** Model family preferred per factor (worker/README.md "Upscaling"). */
const FAMILY_PREFERENCE = ['slim', 'medium', 'thick'];

/** The preferred prepared model for a factor, or undefined. */
export function chooseUpscaleModel(modelsDir: string, factor: number): { model: ModelEntry; file: string } | undefined {
  const candidates = modelsForTask('upscale')
    .filter((m) => m.preprocessing.kind === 'super-resolution' && m.preprocessing.scale === factor)
    .map((m) => ({ model: m, file: preparedModelFile(modelsDir, m), rank: FAMILY_PREFERENCE.findIndex((f) => m.id.includes(f)) }))
    .filter((c): c is { model: ModelEntry; file: string; rank: number } => c.file !== null)
    .sort((a, b) => (a.rank < 0 ? 99 : a.rank) - (b.rank < 0 ? 99 : b.rank));
  return candidates[0];
}

/** Loads one ESRGAN model per factor (2 and 4) once; unavailable when neither is prepared. */
export const loadUpscaleTool: ToolLoader<'upscale'> = async ({ config, runtime, logger }) => {
  const sessions = new Map<number, { model: ModelEntry; session: ModelSession }>();
  for (const factor of [2, 4]) {
    const chosen = chooseUpscaleModel(config.MODELS_DIR, factor);
    if (chosen) sessions.set(factor, { model: chosen.model, session: await runtime.load(chosen.file) });
  }
  const first = [...sessions.values()][0];
  if (!first) return { unavailable: 'no upscaling model is prepared (run npm run models)' };
  if (config.WORKER_WARMUP_RUNS > 0) {
    // One full tile: the shape most of the work of a large image runs at.
    const image = await warmUpImage(DEFAULT_TILE_SIZE, DEFAULT_TILE_SIZE);
    for (const [factor, { model, session }] of sessions) {
      const ms = await warmUp(config.WORKER_WARMUP_RUNS, () => upscaleImage(session, model, image, { outputFormat: 'png' }));
      logger.info({ tool: 'upscale', factor, model: model.id, ms }, 'warmed up');
    }
  }
  return {
    provider: first.session.provider,
    close: async () => {
      for (const { session } of sessions.values()) await session.release();
    },
    run: async (ctx) => {
      const entry = sessions.get(ctx.payload.factor);
      if (!entry) throw new UnrecoverableError(`Upscaling x${ctx.payload.factor} is not available on this worker.`);
      const onTile = async (done: number, total: number) => {
        await ctx.progress(PERCENTS.prepared + ((PERCENTS.inferred - PERCENTS.prepared) * done) / total, formatJobStage('processing', done, total));
        await ctx.checkCancelled();
      };
      return runSingleImageJob(
        ctx,
        PERCENTS,
        (input, step) => upscaleImage(entry.session, entry.model, input, { outputFormat: ctx.payload.outputFormat }, step, onTile),
        { provider: entry.session.provider, notes: [`model ${entry.model.id}`] },
      );
    },
  };
};

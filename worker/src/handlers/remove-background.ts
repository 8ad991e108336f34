import { loadWithPrecision } from '../inference';
import { defaultModel, preparedModelFile } from '../models';
import { removeBackground } from '../pipelines/remove-background';
import { warmUp, warmUpImage } from '../pipelines/warm-up';
import { downloadInput, runSingleImageJob } from './job-io';
import type { ToolLoader } from './types';

const PERCENTS = { downloaded: 10, prepared: 20, inferred: 70, encoded: 90, uploaded: 100 };

/** Loads the default matting model (manifest) once; unavailable when `npm run models` has not prepared it. */
export const loadRemoveBackgroundTool: ToolLoader<'remove-background'> = async ({ config, runtime, logger }) => {
  const wanted = defaultModel('background-removal');
  if (!wanted) return { unavailable: 'no background-removal model in the manifest' };
  const file = preparedModelFile(config.MODELS_DIR, wanted);
  if (!file) return { unavailable: `model ${wanted.id} is not prepared (run npm run models)` };
  // The int8 file where WORKER_PRECISION and the CPU call for it; same tensors and preprocessing as the fp32 one.
  const {
    session,
    entry: model,
    precision,
  } = await loadWithPrecision(runtime, wanted, file, {
    setting: config.WORKER_PRECISION,
    modelsDir: config.MODELS_DIR,
    logger,
  });
  if (config.WORKER_WARMUP_RUNS > 0 && model.preprocessing.kind === 'matting') {
    // At the model's own input size, so the warm-up runs exactly what a typical job runs.
    const image = await warmUpImage(model.preprocessing.width, model.preprocessing.height);
    const ms = await warmUp(config.WORKER_WARMUP_RUNS, () =>
      removeBackground(session, model, image, { outputFormat: 'png', keepSources: true }),
    );
    logger.info({ tool: 'remove-background', model: model.id, ms }, 'warmed up');
  }
  return {
    provider: session.provider,
    precision,
    close: () => session.release(),
    run: (ctx) =>
      runSingleImageJob(
        ctx,
        PERCENTS,
        async (input, step) => {
          const { backgroundKey } = ctx.payload;
          const backgroundImage = backgroundKey ? await downloadInput(ctx, backgroundKey) : undefined;
          return removeBackground(
            session,
            model,
            input,
            {
              // Older payloads carry no layout: layoutOf builds it from these fields.
              layout: ctx.payload.layout,
              outputFormat: ctx.payload.outputFormat,
              backgroundColor: ctx.payload.backgroundColor,
              maskOnly: ctx.payload.maskOnly,
              backgroundImage,
              keepSources: true,
            },
            step,
          );
        },
        { provider: session.provider, notes: [] },
      ),
  };
};

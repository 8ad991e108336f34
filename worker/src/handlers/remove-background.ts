import { UnrecoverableError } from 'bullmq';
import { removeBackground } from '../pipelines/remove-background';
import { warmUp, warmUpImage } from '../pipelines/warm-up';
import { loadCustomMatting } from './custom-matting';
import { loadDefaultMatting } from './default-matting';
import { downloadInput, runSingleImageJob } from './job-io';
import { type ToolLoader, isUnavailable } from './types';

const PERCENTS = { downloaded: 10, prepared: 20, inferred: 70, encoded: 90, uploaded: 100 };

/**
 * Loads the default matting model (manifest) once, offered as `standard`; unavailable when `npm run models` has
 * not prepared it. An operator's own model (WORKER_MATTING_MODEL_FILE) is offered as `hq` when it passes its
 * checks (custom-matting.ts).
 */
export const loadRemoveBackgroundTool: ToolLoader<'remove-background'> = async (deps) => {
  const { config, runtime, logger } = deps;
  const loaded = await loadDefaultMatting(deps);
  if (isUnavailable(loaded)) return loaded;
  const { session, entry: model, precision } = loaded;
  if (config.WORKER_WARMUP_RUNS > 0 && model.preprocessing.kind === 'matting') {
    // At the model's own input size, so the warm-up runs exactly what a typical job runs.
    const image = await warmUpImage(model.preprocessing.width, model.preprocessing.height);
    const ms = await warmUp(config.WORKER_WARMUP_RUNS, () =>
      removeBackground(session, model, image, { outputFormat: 'png', keepSources: true }),
    );
    logger.info({ tool: 'remove-background', model: model.id, ms }, 'warmed up');
  }
  const hq = await loadCustomMatting(config, runtime, logger);
  if (hq && config.WORKER_WARMUP_RUNS > 1) {
    // The golden check was its first run.
    const image = await warmUpImage(hq.spec.width, hq.spec.height);
    const ms = await warmUp(config.WORKER_WARMUP_RUNS - 1, () =>
      removeBackground(hq.session, hq.spec, image, { outputFormat: 'png', keepSources: true }),
    );
    logger.info({ tool: 'remove-background', model: 'hq', ms }, 'warmed up');
  }
  return {
    provider: session.provider,
    precision,
    // Without hq there is nothing to choose: the heartbeat then lists no models, as before the choice existed.
    ...(hq ? { models: ['standard', 'hq'] } : {}),
    close: async () => {
      await session.release();
      await hq?.session.release();
    },
    run: async (ctx) => {
      const chosen = ctx.payload.model === 'hq' ? hq : { session, spec: model };
      // The API offers hq only while some worker advertises it; this one may not be that worker.
      if (!chosen)
        throw new UnrecoverableError('Background removal with the hq model is not available on this worker.');
      return runSingleImageJob(
        ctx,
        PERCENTS,
        async (input, step) => {
          const { backgroundKey } = ctx.payload;
          const backgroundImage = backgroundKey ? await downloadInput(ctx, backgroundKey) : undefined;
          return removeBackground(
            chosen.session,
            chosen.spec,
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
        {
          provider: chosen.session.provider,
          notes: ctx.payload.model === 'hq' ? [`model hq (${chosen.spec.id})`] : [],
        },
      );
    },
  };
};

/**
 * The worker bench's child process (bench/sections/worker.ts runs one per measurement, so peak RSS is per tool):
 * our pipelines with their models loaded once, as at worker start, then timed end-to-end runs; one JSON line out.
 *
 * `tsx bench/lib/worker-child.ts --child <rb|rb-int8|rb-mattes|up|up-big|quality|model:<choice>:<factor>> <input>
 * <output> <runs>`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DEFAULT_UPSCALE_MODEL,
  executionProviderSchema,
  type ExecutionProvider,
  type UpscaleModel,
} from '@imagestudio/contracts';
import { createLogger } from '@imagestudio/runtime';
import { getModel, int8Variant } from '../../models/manifest';
import { DEFAULT_WARMUP_RUNS, loadWorkerConfig } from '../../worker/src/config';
import { loadUpscalers } from '../../worker/src/handlers/upscale';
import { InferenceRuntime } from '../../worker/src/inference';
import { maskIou } from '../../worker/src/imaging/matting';
import { defaultModel } from '../../worker/src/models';
import { removeBackground } from '../../worker/src/pipelines/remove-background';
import { type Upscaler, upscaleImage } from '../../worker/src/pipelines/upscale';
import { sized } from './smoke';
import { QUALITY_PHOTOS, type QualityRow, upscaleQuality } from './upscale-quality';

export const MODELS = process.env.MODELS_DIR || path.join(__dirname, '..', '..', 'models', '.cache');
// Untimed runs first, on every side: what our worker does at start (WORKER_WARMUP_RUNS), the peers get too.
export const WARMUPS = sized(DEFAULT_WARMUP_RUNS, 0);
// Background removal is measured with the model the worker runs by default.
export const RB_MODEL = defaultModel('background-removal')?.id ?? 'isnet-medium';
// Its int8 file (models/quantize), measured beside it when prepared.
export const RB_INT8 = int8Variant(RB_MODEL);
export const rbInt8Ready = () => RB_INT8 !== undefined && fs.existsSync(path.join(MODELS, RB_INT8.file));
/** The four fixture photos the matte of the int8 model is compared on (bench/lib/upscale-quality.ts's photos). */
const MATTE_PHOTOS = () =>
  fs
    .readdirSync(QUALITY_PHOTOS)
    .filter((f) => /\.(jpe?g|png|webp)$/i.test(f))
    .sort()
    .map((f) => path.join(QUALITY_PHOTOS, f));

export interface ChildResult {
  ms: number;
  bareMs?: number;
  /** Median over runs of (end to end - bare inference) / bare inference, in %: each run against its own inference. */
  overheadPct?: number;
  maxRssMiB: number;
  times: number[];
  provider?: string;
  /** Median milliseconds of each pipeline stage (decode, prepare, infer, refine, encode...). */
  stages?: Record<string, number>;
  /** The upscaling quality table (child kind `quality`). */
  quality?: QualityRow[];
  /** Child kind `rb-mattes`: int8 against fp32 per photo (IoU at 0.5, mean |alpha difference| in 0..1). */
  mattes?: { photo: string; iou: number; meanAbsDiff: number }[];
  /** 1-minute load average when the child ended (the machine may be shared). */
  load1?: number;
}

/** The user-facing upscaling models run on every provider (photo-max needs a GPU and is measured only there). */
export const BENCH_UPSCALE_MODELS: UpscaleModel[] = ['fast', 'photo', 'illustration'];

/** WORKER_EXECUTION_PROVIDERS as the worker reads it (comma-separated), defaulting to cpu. */
function benchProviders(): ExecutionProvider[] {
  const list = (process.env.WORKER_EXECUTION_PROVIDERS ?? 'cpu')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return list.map((p) => executionProviderSchema.parse(p));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * `warmups` untimed then `runs` timed calls of one pipeline; the last output is written to `output`. Returns
 * the child's figures without its RSS and provider.
 */
async function timedRuns<T extends { data: Buffer; timings: Record<string, number> }>(
  warmups: number,
  runs: number,
  output: string,
  once: () => Promise<T>,
): Promise<{ last: T; figures: Pick<ChildResult, 'ms' | 'bareMs' | 'overheadPct' | 'times' | 'stages'> }> {
  const times: number[] = [];
  const bare: number[] = [];
  const stageTimes: Record<string, number[]> = {};
  let last: T | undefined;
  for (let i = 0; i < warmups + runs; i++) {
    const t = performance.now();
    last = await once();
    if (i >= warmups) {
      times.push(performance.now() - t);
      bare.push(last.timings.inferBare!);
      for (const [k, v] of Object.entries(last.timings)) (stageTimes[k] ??= []).push(v);
    }
  }
  fs.writeFileSync(output, last!.data);
  return {
    last: last!,
    figures: {
      ms: median(times),
      bareMs: median(bare),
      overheadPct: median(times.map((ms, i) => ((ms - bare[i]!) / bare[i]!) * 100)),
      times,
      stages: Object.fromEntries(Object.entries(stageTimes).map(([k, v]) => [k, Math.round(median(v))])),
    },
  };
}

type Figures = Awaited<ReturnType<typeof timedRuns>>['figures'];

/** The child's peak memory, as its result reports it. */
const maxRssMiB = () => process.resourceUsage().maxRSS / 1024;

/** Our side, in a child: models loaded once (as at worker start), then timed end-to-end runs. */
async function child(kind: string, input: string, output: string, runs: number): Promise<void> {
  // The same provider list as the worker's (cpu by default), so a GPU host measures its GPU path.
  const runtime = await InferenceRuntime.start({
    providers: benchProviders(),
    requireGpu: false,
    cpuThreads: os.availableParallelism(),
  });
  const bytes = fs.readFileSync(input);
  let result: ChildResult;
  if (kind === 'rb-mattes') result = await int8Mattes(runtime);
  else if (kind === 'rb' || kind === 'rb-int8') {
    const model = kind === 'rb' ? getModel(RB_MODEL) : RB_INT8!;
    const session = await runtime.load(path.join(MODELS, model.file));
    const measured = await timedRuns(WARMUPS, runs, output, () =>
      removeBackground(session, model, bytes, { outputFormat: 'png' }),
    );
    fs.writeFileSync(`${output}.alpha`, measured.last.alpha);
    result = { ...measured.figures, maxRssMiB: maxRssMiB(), provider: session.provider };
  } else if (kind === 'up') {
    // The UpscalerJS comparison: the same esrgan-slim weights on both sides.
    const model = getModel('esrgan-slim-x4');
    const session = await runtime.load(path.join(MODELS, model.file));
    const figures = (
      await timedRuns(WARMUPS, runs, output, () => upscaleImage({ session, model }, bytes, { outputFormat: 'png' }))
    ).figures;
    result = { ...figures, maxRssMiB: maxRssMiB(), provider: session.provider };
  } else result = await workerUpscalers(runtime, kind, bytes, output, runs);
  await runtime.close();
  // Peak memory as of the end, the models closed (a peak only grows).
  result.maxRssMiB = maxRssMiB();
  console.log(JSON.stringify(result));
}

/** int8 against fp32 on the fixture photos, through the whole pipeline (alpha at the photo's size). */
async function int8Mattes(runtime: InferenceRuntime): Promise<ChildResult> {
  const fp32 = getModel(RB_MODEL);
  const [a, b] = [
    await runtime.load(path.join(MODELS, fp32.file)),
    await runtime.load(path.join(MODELS, RB_INT8!.file)),
  ];
  const mattes: NonNullable<ChildResult['mattes']> = [];
  for (const photo of MATTE_PHOTOS()) {
    const input = fs.readFileSync(photo);
    const x = (await removeBackground(a, fp32, input, { outputFormat: 'png' })).alpha;
    const y = (await removeBackground(b, RB_INT8!, input, { outputFormat: 'png' })).alpha;
    let diff = 0;
    for (let i = 0; i < x.length; i++) diff += Math.abs(x[i]! - y[i]!);
    mattes.push({ photo: path.basename(photo), iou: maskIou(x, y), meanAbsDiff: diff / x.length / 255 });
  }
  return { ms: 0, times: [], maxRssMiB: maxRssMiB(), mattes };
}

/**
 * The worker's own model table and loading (handlers/upscale.ts): the quality table (`quality`), the 4096^2 x2
 * run (`up-big`) or one model's speed (`model:<choice>:<factor>`).
 */
async function workerUpscalers(
  runtime: InferenceRuntime,
  kind: string,
  bytes: Buffer,
  output: string,
  runs: number,
): Promise<ChildResult> {
  const config = loadWorkerConfig({
    S3_ENDPOINT: 'http://127.0.0.1:1',
    MODELS_DIR: MODELS,
    WORKER_EXECUTION_PROVIDERS: benchProviders().join(','),
  });
  const { runs: upscalers } = await loadUpscalers({ config, runtime, logger: createLogger('silent', 'bench') });
  const pick = (choice: UpscaleModel, factor: 2 | 4): Upscaler => {
    const upscaler = upscalers.get(choice)?.get(factor);
    if (!upscaler) throw new Error(`${choice} x${factor} is not loaded: run npm run models`);
    return upscaler;
  };
  const provider = upscalers.get(DEFAULT_UPSCALE_MODEL)?.get(4)?.session.provider ?? 'cpu';
  if (kind === 'quality') {
    const quality = await upscaleQuality(new Map(BENCH_UPSCALE_MODELS.map((m) => [m, pick(m, 4)])));
    return { ms: 0, times: [], maxRssMiB: maxRssMiB(), provider, quality };
  }
  const [, choice, factor] = kind === 'up-big' ? ['', DEFAULT_UPSCALE_MODEL, '2'] : kind.split(':');
  const upscaler = pick(choice as UpscaleModel, Number(factor) as 2 | 4);
  // The 4096^2 run is measured cold: its peak memory is the point, and one run takes minutes on 2 cores.
  const warmups = kind === 'up-big' ? 0 : WARMUPS;
  const figures: Figures = (
    await timedRuns(warmups, runs, output, () => upscaleImage(upscaler, bytes, { outputFormat: 'png' }))
  ).figures;
  return { ...figures, maxRssMiB: maxRssMiB(), provider };
}

if (process.argv[2] === '--child') {
  const [, , , kind, input, output, runs] = process.argv;
  child(kind!, input!, output!, Number(runs)).catch((err: Error) => {
    console.error(err.stack);
    process.exit(1);
  });
}

/**
 * `npm run bench:worker`: the worker's pipelines against their peers, side by side in one run, each measured in
 * its own child process (so peak RSS is per tool): background removal at 1024^2 vs @imgly/background-removal-node
 * (small model), upscaling 512^2 -> x4 vs UpscalerJS (same esrgan-slim weights, tfjs wasm), a 4096^2 x2
 * upscale with the default model for memory, the speed of each upscaling model at 256^2 and 512^2, and their
 * quality against bicubic (bench/lib/upscale-quality.ts). Peers live in bench/peers (own package.json, installed with
 * --ignore-scripts on first use).
 *
 * Child mode (used by the section itself):
 * `tsx bench/sections/worker.ts --child <rb|up|up-big|quality|model:<choice>:<factor>> <input> <output> <runs>`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import {
  DEFAULT_UPSCALE_MODEL,
  executionProviderSchema,
  type ExecutionProvider,
  type UpscaleModel,
} from '@imagestudio/contracts';
import { SMOKE, sized } from '../lib/smoke';
import type { BenchSection } from '../lib/types';
import { getModel, int8Variant } from '../../models/manifest';
import { InferenceRuntime } from '../../worker/src/inference';
import { DEFAULT_WARMUP_RUNS, loadWorkerConfig } from '../../worker/src/config';
import { loadUpscalers } from '../../worker/src/handlers/upscale';
import { createLogger } from '@imagestudio/runtime';
import { defaultModel } from '../../worker/src/models';
import { maskIou } from '../../worker/src/imaging/matting';
import { removeBackground } from '../../worker/src/pipelines/remove-background';
import { type Upscaler, upscaleImage } from '../../worker/src/pipelines/upscale';
import { QUALITY_PHOTOS, type QualityRow, upscaleQuality } from '../lib/upscale-quality';

const ROOT = path.resolve(__dirname, '..', '..');
const PEERS = path.join(ROOT, 'bench', 'peers');
const MODELS = process.env.MODELS_DIR || path.join(ROOT, 'models', '.cache');
const PHOTO = path.join(ROOT, 'worker', 'src', 'test-support', 'fixtures', 'coffee-300.png');
const RUNS = Number(process.env.BENCH_RUNS ?? sized(5, 1));
// Untimed runs first, on every side: what our worker does at start (WORKER_WARMUP_RUNS), the peers get too.
const WARMUPS = sized(DEFAULT_WARMUP_RUNS, 0);
// Background removal is measured with the model the worker runs by default.
const RB_MODEL = defaultModel('background-removal')?.id ?? 'isnet-medium';
// Its int8 file (models/quantize), measured beside it when prepared.
const RB_INT8 = int8Variant(RB_MODEL);
const rbInt8Ready = () => RB_INT8 !== undefined && fs.existsSync(path.join(MODELS, RB_INT8.file));
/** The four fixture photos the matte of the int8 model is compared on (bench/lib/upscale-quality.ts's photos). */
const MATTE_PHOTOS = () =>
  fs
    .readdirSync(QUALITY_PHOTOS)
    .filter((f) => /\.(jpe?g|png|webp)$/i.test(f))
    .sort()
    .map((f) => path.join(QUALITY_PHOTOS, f));

interface ChildResult {
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
const BENCH_UPSCALE_MODELS: UpscaleModel[] = ['fast', 'photo', 'illustration'];

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

/** Our side, in a child: models loaded once (as at worker start), then timed end-to-end runs. */
async function child(kind: string, input: string, output: string, runs: number): Promise<void> {
  // The same provider list as the worker's (cpu by default), so a GPU host measures its GPU path.
  const runtime = await InferenceRuntime.start({
    providers: benchProviders(),
    requireGpu: false,
    cpuThreads: os.availableParallelism(),
  });
  const bytes = fs.readFileSync(input);
  let figures: Awaited<ReturnType<typeof timedRuns>>['figures'];
  let provider: string;
  if (kind === 'rb-mattes') {
    // int8 against fp32 on the fixture photos, through the whole pipeline (alpha at the photo's size).
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
    await runtime.close();
    console.log(JSON.stringify({ ms: 0, times: [], maxRssMiB: process.resourceUsage().maxRSS / 1024, mattes }));
    return;
  }
  if (kind === 'rb' || kind === 'rb-int8') {
    const model = kind === 'rb' ? getModel(RB_MODEL) : RB_INT8!;
    const session = await runtime.load(path.join(MODELS, model.file));
    provider = session.provider;
    const measured = await timedRuns(WARMUPS, runs, output, () =>
      removeBackground(session, model, bytes, { outputFormat: 'png' }),
    );
    fs.writeFileSync(`${output}.alpha`, measured.last.alpha);
    figures = measured.figures;
  } else if (kind === 'up') {
    // The UpscalerJS comparison: the same esrgan-slim weights on both sides.
    const model = getModel('esrgan-slim-x4');
    const session = await runtime.load(path.join(MODELS, model.file));
    provider = session.provider;
    figures = (
      await timedRuns(WARMUPS, runs, output, () => upscaleImage({ session, model }, bytes, { outputFormat: 'png' }))
    ).figures;
  } else {
    // The worker's own model table and loading (handlers/upscale.ts).
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
    provider = upscalers.get(DEFAULT_UPSCALE_MODEL)?.get(4)?.session.provider ?? 'cpu';
    if (kind === 'quality') {
      const quality = await upscaleQuality(new Map(BENCH_UPSCALE_MODELS.map((m) => [m, pick(m, 4)])));
      console.log(
        JSON.stringify({ ms: 0, times: [], maxRssMiB: process.resourceUsage().maxRSS / 1024, provider, quality }),
      );
      await runtime.close();
      return;
    }
    const [, choice, factor] = kind === 'up-big' ? ['', DEFAULT_UPSCALE_MODEL, '2'] : kind.split(':');
    const upscaler = pick(choice as UpscaleModel, Number(factor) as 2 | 4);
    // The 4096^2 run is measured cold: its peak memory is the point, and one run takes minutes on 2 cores.
    const warmups = kind === 'up-big' ? 0 : WARMUPS;
    figures = (await timedRuns(warmups, runs, output, () => upscaleImage(upscaler, bytes, { outputFormat: 'png' })))
      .figures;
  }
  await runtime.close();
  const result: ChildResult = { ...figures, maxRssMiB: process.resourceUsage().maxRSS / 1024, provider };
  console.log(JSON.stringify(result));
}

function runJson(cmd: string, args: string[]): ChildResult {
  const res = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const line = res.stdout.trim().split('\n').pop() ?? '';
  if (res.status !== 0 || !line.startsWith('{'))
    throw new Error(`${path.basename(args[args.length - 5] ?? cmd)} failed: ${res.stderr.slice(-2000)}`);
  return { ...(JSON.parse(line) as ChildResult), load1: round(os.loadavg()[0]!, 2) };
}

const ours = (kind: string, input: string, output: string, runs: number) =>
  runJson(process.execPath, ['--import', 'tsx', __filename, '--child', kind, input, output, String(runs)]);

export function ensurePeers(): void {
  if (fs.existsSync(path.join(PEERS, 'node_modules', '@imgly', 'background-removal-node'))) return;
  console.log('installing benchmark peers into bench/peers (npm install --ignore-scripts)...');
  execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: PEERS, stdio: 'inherit' });
}

/** PSNR in dB of two same-sized byte buffers. */
function psnr(a: Buffer, b: Buffer): number {
  let se = 0;
  for (let i = 0; i < a.length; i++) se += (a[i]! - b[i]!) ** 2;
  const mse = se / a.length;
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

const stageList = (stages: Record<string, number> = {}) =>
  Object.entries(stages)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

const round = (x: number, d = 0) => Math.round(x * 10 ** d) / 10 ** d;

/**
 * The smoke run: each of our pipelines once on a 128 px photo, with no peers (their install is hundreds of MB) and
 * no goals: it shows the worker's bench still runs, not how fast.
 */
async function smokeRun(): Promise<BenchSection> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-worker-smoke-'));
  try {
    const input = path.join(dir, 'in128.png');
    await sharp(PHOTO).resize(128, 128, { fit: 'fill' }).png().toFile(input);
    const kinds = ['rb', 'up', 'up-big', `model:${DEFAULT_UPSCALE_MODEL}:4`];
    const rows = kinds.map((kind, i) => {
      const result = ours(kind, input, path.join(dir, `out-${i}.png`), 1);
      return { tool: `${kind} 128^2`, ms: Math.round(result.ms), provider: result.provider ?? '-' };
    });
    return { name: 'worker', rows, goals: [], notes: ['smoke run: one 128 px input per pipeline, no peers'] };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export default async function run(): Promise<BenchSection> {
  if (SMOKE) return smokeRun();
  ensurePeers();
  const startLoad = round(os.loadavg()[0]!, 2);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-worker-'));
  const in1024 = path.join(dir, 'in1024.jpg');
  const in512 = path.join(dir, 'in512.png');
  const in4096 = path.join(dir, 'in4096.png');
  const in256 = path.join(dir, 'in256.png');
  // Real photo content at the sizes the goals name.
  await sharp(PHOTO).resize(1024, 1024, { fit: 'fill' }).jpeg({ quality: 90 }).toFile(in1024);
  await sharp(PHOTO).resize(512, 512, { fit: 'fill' }).png().toFile(in512);
  await sharp(PHOTO).resize(4096, 4096, { fit: 'fill' }).png({ compressionLevel: 1 }).toFile(in4096);
  await sharp(PHOTO).resize(256, 256, { fit: 'fill' }).png().toFile(in256);

  const rbOurs = ours('rb', in1024, path.join(dir, 'rb-ours.png'), RUNS);
  const rbPeer = runJson(process.execPath, [
    path.join(PEERS, 'imgly.cjs'),
    in1024,
    path.join(dir, 'rb-peer.png'),
    'small',
    String(RUNS),
    String(WARMUPS),
  ]);
  // The int8 file of the same model, right after the fp32 one and the peer (same machine state, as ratios).
  const int8 = rbInt8Ready()
    ? {
        rb: ours('rb-int8', in1024, path.join(dir, 'rb-int8.png'), RUNS),
        mattes: ours('rb-mattes', in1024, path.join(dir, 'unused'), 1).mattes!,
        peerMedium: runJson(process.execPath, [
          path.join(PEERS, 'imgly.cjs'),
          in1024,
          path.join(dir, 'rb-peer-medium.png'),
          'medium',
          '1',
          '1',
        ]),
      }
    : undefined;
  const upOurs = ours('up', in512, path.join(dir, 'up-ours.png'), RUNS);
  const upPeer = runJson(process.execPath, [
    path.join(PEERS, 'upscalerjs.cjs'),
    in512,
    path.join(dir, 'up-peer.png'),
    '4',
    String(RUNS),
    String(WARMUPS),
  ]);
  const big = ours('up-big', in4096, path.join(dir, 'big.png'), 1);
  // Per-model speed so operators can choose; the models' full runs take seconds each on CPU, so at most 3.
  const modelRuns = Math.min(RUNS, 3);
  const speed = BENCH_UPSCALE_MODELS.flatMap((m) =>
    (
      [
        [256, in256],
        [512, in512],
      ] as const
    ).map(([size, input]) => ({
      model: m,
      size,
      result: ours(`model:${m}:4`, input, path.join(dir, `speed-${m}-${size}.png`), modelRuns),
    })),
  );
  const quality = ours('quality', in256, path.join(dir, 'unused'), 1).quality!;

  const ourAlpha = fs.readFileSync(path.join(dir, 'rb-ours.png.alpha'));
  const peerAlpha = await sharp(path.join(dir, 'rb-peer.png')).ensureAlpha().extractChannel(3).raw().toBuffer();
  const iou = maskIou(ourAlpha, peerAlpha);
  const int8Iou = int8 && {
    peerMedium: maskIou(
      fs.readFileSync(path.join(dir, 'rb-int8.png.alpha')),
      await sharp(path.join(dir, 'rb-peer-medium.png')).ensureAlpha().extractChannel(3).raw().toBuffer(),
    ),
    fp32Min: Math.min(...int8.mattes.map((m) => m.iou)),
    madMax: Math.max(...int8.mattes.map((m) => m.meanAbsDiff)),
  };
  const ourUp = await sharp(path.join(dir, 'up-ours.png')).removeAlpha().raw().toBuffer();
  const peerUp = fs.readFileSync(path.join(dir, 'up-peer.png.rgb'));
  const upPsnr = psnr(ourUp, peerUp);
  fs.rmSync(dir, { recursive: true, force: true });

  const rbSpeedup = rbPeer.ms / rbOurs.ms;
  const rbOverhead = rbOurs.overheadPct!;
  const upSpeedup = upPeer.ms / upOurs.ms;
  const upOverhead = upOurs.overheadPct!;
  const bigRssGiB = big.maxRssMiB / 1024;
  const photo512 = speed.find((r) => r.model === DEFAULT_UPSCALE_MODEL && r.size === 512)!.result;
  const q = (method: string) => quality.find((r) => r.method === method)!;
  const photoGain = q(DEFAULT_UPSCALE_MODEL).jpeg.ssim - q('bicubic').jpeg.ssim;

  return {
    name: 'worker',
    rows: [
      {
        tool: `remove-background 1024^2 (ours, ${RB_MODEL})`,
        e2e_ms: round(rbOurs.ms),
        bare_ms: round(rbOurs.bareMs!),
        overhead_pct: round(rbOverhead, 1),
        peak_rss_mib: round(rbOurs.maxRssMiB),
        load_1m: rbOurs.load1!,
      },
      ...(int8
        ? [
            {
              tool: `remove-background 1024^2 (ours, ${RB_INT8!.id})`,
              e2e_ms: round(int8.rb.ms),
              bare_ms: round(int8.rb.bareMs!),
              overhead_pct: round(int8.rb.overheadPct!, 1),
              peak_rss_mib: round(int8.rb.maxRssMiB),
              load_1m: int8.rb.load1!,
            },
          ]
        : []),
      {
        tool: 'remove-background 1024^2 (imgly, small)',
        e2e_ms: round(rbPeer.ms),
        bare_ms: '-',
        overhead_pct: '-',
        peak_rss_mib: round(rbPeer.maxRssMiB),
        load_1m: rbPeer.load1!,
      },
      ...(int8?.mattes ?? []).map((m) => ({
        tool: `matte int8 vs fp32: ${m.photo}`,
        iou: round(m.iou, 4),
        mean_abs_alpha_diff: round(m.meanAbsDiff, 4),
      })),
      {
        tool: 'upscale 512^2 x4 (ours, esrgan-slim-x4)',
        e2e_ms: round(upOurs.ms),
        bare_ms: round(upOurs.bareMs!),
        overhead_pct: round(upOverhead, 1),
        peak_rss_mib: round(upOurs.maxRssMiB),
      },
      {
        tool: 'upscale 512^2 x4 (UpscalerJS, tfjs wasm)',
        e2e_ms: round(upPeer.ms),
        bare_ms: '-',
        overhead_pct: '-',
        peak_rss_mib: round(upPeer.maxRssMiB),
      },
      {
        tool: `upscale 4096^2 x2 (ours, ${DEFAULT_UPSCALE_MODEL}: x4 tiles halved)`,
        e2e_ms: round(big.ms),
        bare_ms: round(big.bareMs!),
        overhead_pct: round(big.overheadPct!, 1),
        peak_rss_mib: round(big.maxRssMiB),
      },
      ...speed.map(({ model, size, result }) => ({
        tool: `upscale ${size}^2 x4 (ours, model ${model})`,
        e2e_ms: round(result.ms),
        bare_ms: round(result.bareMs!),
        overhead_pct: round(result.overheadPct!, 1),
        peak_rss_mib: round(result.maxRssMiB),
      })),
      ...quality.map((r) => ({
        tool: `quality x4 of 64 px crops: ${r.method}`,
        clean_psnr_db: round(r.clean.psnr, 2),
        clean_ssim: round(r.clean.ssim, 3),
        jpeg40_psnr_db: round(r.jpeg.psnr, 2),
        jpeg40_ssim: round(r.jpeg.ssim, 3),
      })),
    ],
    goals: [
      {
        label: 'background removal speed-up vs imgly small (end to end)',
        value: round(rbSpeedup, 2),
        target: '>= 1.8x',
        met: rbSpeedup >= 1.8,
      },
      {
        label: 'background removal pipeline overhead over bare inference',
        value: round(rbOverhead, 1),
        target: '<= 15%',
        met: rbOverhead <= 15,
      },
      { label: 'background removal mask IoU vs imgly', value: round(iou, 4), target: '>= 0.98', met: iou >= 0.98 },
      ...(int8 && int8Iou
        ? [
            {
              label: 'int8 background removal: bare inference speed-up over fp32',
              value: round(rbOurs.bareMs! / int8.rb.bareMs!, 2),
              target: '>= 2x',
              met: rbOurs.bareMs! / int8.rb.bareMs! >= 2,
            },
            {
              label: 'int8 background removal speed-up vs imgly small (end to end)',
              value: round(rbPeer.ms / int8.rb.ms, 2),
              target: '>= 4x',
              met: rbPeer.ms / int8.rb.ms >= 4,
            },
            {
              label: 'int8 matte vs fp32 on the fixture photos: worst IoU',
              value: round(int8Iou.fp32Min, 4),
              target: '>= 0.99',
              met: int8Iou.fp32Min >= 0.99,
            },
            {
              label: 'int8 matte vs fp32 on the fixture photos: worst mean |alpha difference|',
              value: round(int8Iou.madMax, 4),
              target: '<= 0.01',
              met: int8Iou.madMax <= 0.01,
            },
            {
              label: 'int8 background removal mask IoU vs imgly medium',
              value: round(int8Iou.peerMedium, 4),
              target: '>= 0.98',
              met: int8Iou.peerMedium >= 0.98,
            },
            {
              label: 'int8 background removal peak RSS over fp32 (MiB)',
              value: round(int8.rb.maxRssMiB - rbOurs.maxRssMiB),
              target: '<= 0',
              met: int8.rb.maxRssMiB <= rbOurs.maxRssMiB,
            },
          ]
        : []),
      {
        label: 'upscale x4 speed-up vs UpscalerJS (same weights)',
        value: round(upSpeedup, 2),
        target: '>= 5x',
        met: upSpeedup >= 5,
      },
      { label: 'upscale x4 PSNR vs UpscalerJS output', value: round(upPsnr, 1), target: '>= 60 dB', met: upPsnr >= 60 },
      { label: 'upscale 4096^2 x2 peak RSS (GiB)', value: round(bigRssGiB, 2), target: '< 2 GiB', met: bigRssGiB < 2 },
      {
        label: `upscale 512^2 x4 (${DEFAULT_UPSCALE_MODEL}) overhead over bare inference`,
        value: round(photo512.overheadPct!, 1),
        target: '<= 15%',
        met: photo512.overheadPct! <= 15,
      },
      {
        label: `${DEFAULT_UPSCALE_MODEL} SSIM gain over bicubic on JPEG-q40 crops`,
        value: round(photoGain, 3),
        target: '>= 0.015',
        met: photoGain >= 0.015,
      },
    ],
    notes: [
      `our stages, median ms: background removal ${stageList(rbOurs.stages)}; upscale x4 ${stageList(upOurs.stages)}`,
      `1-minute load average at the start ${startLoad}, at the end ${round(os.loadavg()[0]!, 2)} (load_1m per row: when that child ended)`,
      `provider ${rbOurs.provider}; ${os.availableParallelism()} cores; median of ${RUNS} runs after ${WARMUPS} untimed ones on every side (models loaded and warmed up first, as at worker start)`,
    ],
  };
}

if (process.argv[2] === '--child') {
  const [, , , kind, input, output, runs] = process.argv;
  child(kind!, input!, output!, Number(runs)).catch((err: Error) => {
    console.error(err.stack);
    process.exit(1);
  });
}

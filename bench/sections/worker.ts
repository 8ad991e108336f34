/**
 * `npm run bench:worker`: the worker's pipelines against their peers, side by side in one run, each measured in
 * its own child process (so peak RSS is per tool): background removal at 1024^2 vs @imgly/background-removal-node
 * (small model), upscaling 512^2 -> x4 vs UpscalerJS (same esrgan-slim weights, tfjs wasm), and a 4096^2 x2
 * upscale for memory. Peers live in bench/peers (own package.json, installed with --ignore-scripts on first use).
 *
 * Child mode (used by the section itself): `tsx bench/sections/worker.ts --child <rb|up> <input> <output> <runs>`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { executionProviderSchema, type ExecutionProvider } from '@imagestudio/contracts';
import type { BenchSection } from '../lib/types';
import { getModel } from '../../models/manifest';
import { InferenceRuntime } from '../../worker/src/inference';
import { DEFAULT_WARMUP_RUNS } from '../../worker/src/config';
import { defaultModel } from '../../worker/src/models';
import { maskIou } from '../../worker/src/imaging/matting';
import { removeBackground } from '../../worker/src/pipelines/remove-background';
import { upscaleImage } from '../../worker/src/pipelines/upscale';

const ROOT = path.resolve(__dirname, '..', '..');
const PEERS = path.join(ROOT, 'bench', 'peers');
const MODELS = process.env.MODELS_DIR || path.join(ROOT, 'models', '.cache');
const PHOTO = path.join(ROOT, 'worker', 'src', 'test-support', 'fixtures', 'coffee-300.png');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
// Untimed runs first, on every side: what our worker does at start (WORKER_WARMUP_RUNS), the peers get too.
const WARMUPS = DEFAULT_WARMUP_RUNS;
// Background removal is measured with the model the worker runs by default.
const RB_MODEL = defaultModel('background-removal')?.id ?? 'isnet-medium';

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
}

/** WORKER_EXECUTION_PROVIDERS as the worker reads it (comma-separated), defaulting to cpu. */
function benchProviders(): ExecutionProvider[] {
  const list = (process.env.WORKER_EXECUTION_PROVIDERS ?? 'cpu').split(',').map((p) => p.trim()).filter(Boolean);
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
  const runtime = await InferenceRuntime.start({ providers: benchProviders(), requireGpu: false, cpuThreads: os.availableParallelism() });
  const bytes = fs.readFileSync(input);
  let figures: Awaited<ReturnType<typeof timedRuns>>['figures'];
  let provider: string;
  if (kind === 'rb') {
    const model = getModel(RB_MODEL);
    const session = await runtime.load(path.join(MODELS, model.file));
    provider = session.provider;
    const measured = await timedRuns(WARMUPS, runs, output, () => removeBackground(session, model, bytes, { outputFormat: 'png' }));
    fs.writeFileSync(`${output}.alpha`, measured.last.alpha);
    figures = measured.figures;
  } else {
    const scale = kind === 'up-big' ? 2 : 4;
    const model = getModel(`esrgan-slim-x${scale}`);
    const session = await runtime.load(path.join(MODELS, model.file));
    provider = session.provider;
    // The 4096^2 run is measured cold: its peak memory is the point, and one run takes 40 s on 2 cores.
    const warmups = kind === 'up-big' ? 0 : WARMUPS;
    figures = (await timedRuns(warmups, runs, output, () => upscaleImage({ session, model }, bytes, { outputFormat: 'png' }))).figures;
  }
  await runtime.close();
  const result: ChildResult = { ...figures, maxRssMiB: process.resourceUsage().maxRSS / 1024, provider };
  console.log(JSON.stringify(result));
}

function runJson(cmd: string, args: string[]): ChildResult {
  const res = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const line = res.stdout.trim().split('\n').pop() ?? '';
  if (res.status !== 0 || !line.startsWith('{')) throw new Error(`${path.basename(args[args.length - 5] ?? cmd)} failed: ${res.stderr.slice(-2000)}`);
  return JSON.parse(line) as ChildResult;
}

const ours = (kind: string, input: string, output: string, runs: number) =>
  runJson(process.execPath, ['--import', 'tsx', __filename, '--child', kind, input, output, String(runs)]);

function ensurePeers(): void {
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

const stageList = (stages: Record<string, number> = {}) => Object.entries(stages).map(([k, v]) => `${k} ${v}`).join(', ');

const round = (x: number, d = 0) => Math.round(x * 10 ** d) / 10 ** d;

export default async function run(): Promise<BenchSection> {
  ensurePeers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-worker-'));
  const in1024 = path.join(dir, 'in1024.jpg');
  const in512 = path.join(dir, 'in512.png');
  const in4096 = path.join(dir, 'in4096.png');
  // Real photo content at the sizes the goals name.
  await sharp(PHOTO).resize(1024, 1024, { fit: 'fill' }).jpeg({ quality: 90 }).toFile(in1024);
  await sharp(PHOTO).resize(512, 512, { fit: 'fill' }).png().toFile(in512);
  await sharp(PHOTO).resize(4096, 4096, { fit: 'fill' }).png({ compressionLevel: 1 }).toFile(in4096);

  const rbOurs = ours('rb', in1024, path.join(dir, 'rb-ours.png'), RUNS);
  const rbPeer = runJson(process.execPath, [path.join(PEERS, 'imgly.cjs'), in1024, path.join(dir, 'rb-peer.png'), 'small', String(RUNS), String(WARMUPS)]);
  const upOurs = ours('up', in512, path.join(dir, 'up-ours.png'), RUNS);
  const upPeer = runJson(process.execPath, [path.join(PEERS, 'upscalerjs.cjs'), in512, path.join(dir, 'up-peer.png'), '4', String(RUNS), String(WARMUPS)]);
  const big = ours('up-big', in4096, path.join(dir, 'big.png'), 1);

  const ourAlpha = fs.readFileSync(path.join(dir, 'rb-ours.png.alpha'));
  const peerAlpha = await sharp(path.join(dir, 'rb-peer.png')).ensureAlpha().extractChannel(3).raw().toBuffer();
  const iou = maskIou(ourAlpha, peerAlpha);
  const ourUp = await sharp(path.join(dir, 'up-ours.png')).removeAlpha().raw().toBuffer();
  const peerUp = fs.readFileSync(path.join(dir, 'up-peer.png.rgb'));
  const upPsnr = psnr(ourUp, peerUp);
  fs.rmSync(dir, { recursive: true, force: true });

  const rbSpeedup = rbPeer.ms / rbOurs.ms;
  const rbOverhead = rbOurs.overheadPct!;
  const upSpeedup = upPeer.ms / upOurs.ms;
  const upOverhead = upOurs.overheadPct!;
  const bigRssGiB = big.maxRssMiB / 1024;

  return {
    name: 'worker',
    rows: [
      { tool: `remove-background 1024^2 (ours, ${RB_MODEL})`, e2e_ms: round(rbOurs.ms), bare_ms: round(rbOurs.bareMs!), overhead_pct: round(rbOverhead, 1), peak_rss_mib: round(rbOurs.maxRssMiB) },
      { tool: 'remove-background 1024^2 (imgly, small)', e2e_ms: round(rbPeer.ms), bare_ms: '-', overhead_pct: '-', peak_rss_mib: round(rbPeer.maxRssMiB) },
      { tool: 'upscale 512^2 x4 (ours, esrgan-slim-x4)', e2e_ms: round(upOurs.ms), bare_ms: round(upOurs.bareMs!), overhead_pct: round(upOverhead, 1), peak_rss_mib: round(upOurs.maxRssMiB) },
      { tool: 'upscale 512^2 x4 (UpscalerJS, tfjs wasm)', e2e_ms: round(upPeer.ms), bare_ms: '-', overhead_pct: '-', peak_rss_mib: round(upPeer.maxRssMiB) },
      { tool: 'upscale 4096^2 x2 (ours, tiled)', e2e_ms: round(big.ms), bare_ms: round(big.bareMs!), overhead_pct: round(big.overheadPct!, 1), peak_rss_mib: round(big.maxRssMiB) },
    ],
    goals: [
      { label: 'background removal speed-up vs imgly small (end to end)', value: round(rbSpeedup, 2), target: '>= 1.8x', met: rbSpeedup >= 1.8 },
      { label: 'background removal pipeline overhead over bare inference', value: round(rbOverhead, 1), target: '<= 15%', met: rbOverhead <= 15 },
      { label: 'background removal mask IoU vs imgly', value: round(iou, 4), target: '>= 0.98', met: iou >= 0.98 },
      { label: 'upscale x4 speed-up vs UpscalerJS (same weights)', value: round(upSpeedup, 2), target: '>= 5x', met: upSpeedup >= 5 },
      { label: 'upscale x4 PSNR vs UpscalerJS output', value: round(upPsnr, 1), target: '>= 60 dB', met: upPsnr >= 60 },
      { label: 'upscale 4096^2 x2 peak RSS (GiB)', value: round(bigRssGiB, 2), target: '< 2 GiB', met: bigRssGiB < 2 },
    ],
    notes: [
      `our stages, median ms: background removal ${stageList(rbOurs.stages)}; upscale x4 ${stageList(upOurs.stages)}`,
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

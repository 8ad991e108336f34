/**
 * `npm run bench:worker`: the worker's pipelines against their peers, side by side in one run, each measured in
 * its own child process (so peak RSS is per tool): background removal at 1024^2 vs @imgly/background-removal-node
 * (small model), upscaling 512^2 -> x4 vs UpscalerJS (same esrgan-slim weights, tfjs wasm), a 4096^2 x2
 * upscale with the default model for memory, the speed of each upscaling model at 256^2 and 512^2, and their
 * quality against bicubic (bench/lib/upscale-quality.ts). Peers live in bench/peers (own package.json, installed with
 * --ignore-scripts on first use).
 *
 * Each measurement of ours runs in bench/lib/worker-child.ts; bench/lib/worker-report.ts makes the table and goals.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { DEFAULT_UPSCALE_MODEL } from '@imagestudio/contracts';
import { SMOKE, sized } from '../lib/smoke';
import type { BenchSection } from '../lib/types';
import { BENCH_UPSCALE_MODELS, type ChildResult, WARMUPS, rbInt8Ready } from '../lib/worker-child';
import { type WorkerMeasures, round, workerGoals, workerRows } from '../lib/worker-report';
import { maskIou } from '../../worker/src/imaging/matting';

const ROOT = path.resolve(__dirname, '..', '..');
const PEERS = path.join(ROOT, 'bench', 'peers');
const CHILD = path.join(ROOT, 'bench', 'lib', 'worker-child.ts');
const PHOTO = path.join(ROOT, 'worker', 'src', 'test-support', 'fixtures', 'coffee-300.png');
const RUNS = Number(process.env.BENCH_RUNS ?? sized(5, 1));

function runJson(cmd: string, args: string[]): ChildResult {
  const res = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const line = res.stdout.trim().split('\n').pop() ?? '';
  if (res.status !== 0 || !line.startsWith('{'))
    throw new Error(`${path.basename(args[args.length - 5] ?? cmd)} failed: ${res.stderr.slice(-2000)}`);
  return { ...(JSON.parse(line) as ChildResult), load1: round(os.loadavg()[0]!, 2) };
}

const ours = (kind: string, input: string, output: string, runs: number) =>
  runJson(process.execPath, ['--import', 'tsx', CHILD, '--child', kind, input, output, String(runs)]);

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
  let m: WorkerMeasures;
  try {
    m = await measure(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return {
    name: 'worker',
    rows: workerRows(m),
    goals: workerGoals(m),
    notes: [
      `our stages, median ms: background removal ${stageList(m.rbOurs.stages)}; upscale x4 ${stageList(m.upOurs.stages)}`,
      `1-minute load average at the start ${startLoad}, at the end ${round(os.loadavg()[0]!, 2)} (load_1m per row: when that child ended)`,
      `provider ${m.rbOurs.provider}; ${os.availableParallelism()} cores; median of ${RUNS} runs after ${WARMUPS} untimed ones on every side (models loaded and warmed up first, as at worker start)`,
    ],
  };
}

/** Every measurement, ours and the peers', on inputs made in `dir`. */
async function measure(dir: string): Promise<WorkerMeasures> {
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

  return { rbOurs, rbPeer, int8, int8Iou, upOurs, upPeer, big, speed, quality, iou, upPsnr };
}

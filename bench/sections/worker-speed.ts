/**
 * `npm run bench -- worker-speed`: where the worker's CPU time goes on two jobs, in one process, with the machine's
 * load average beside each figure (onnxruntime's intra-op threads suffer most from other work on the machine, so
 * compare within one run only).
 *
 * - The `photo` upscaler (realesr-general-x4v3, fp32) at x4 on a 384^2 crop, end to end as the worker runs it
 *   (decode, its inference thread and session options, tiles, PNG encode) against bare onnxruntime with default
 *   options on the plain conversion of the same weights (before the PRelu rewrite `npm run models` applies,
 *   models/convert/prelu-nchwc.ts), alternating, one untimed run of each first. Goals: ours in at most 0.7 of the
 *   bare time (median of the per-round ratios), output within 45 dB PSNR of the plain conversion's.
 * - A 4096^2 x2 `photo` upscale, estimated from a 1024^2 x2 run (inference scaled by the input pixels the tile plan
 *   computes, the rest by area): goal under 100 s on 2 cores. The worker section runs the full 4096^2 once.
 * - Background removal at 1024^2 (the default fp32 ISNet) stage by stage: goal, the worker's own time (all but
 *   onnxruntime's run) under 10% of end to end. As the job handler runs it (the re-composition sources encoded
 *   too, which the worker section's child leaves out); S3 is not in it (the handler's uploads).
 */
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import * as ort from 'onnxruntime-node';
import { SMOKE, sized } from '../lib/smoke';
import type { BenchGoal, BenchSection } from '../lib/types';
import {
  backgroundRemovalStages,
  estimateBig,
  load1,
  median,
  photoRounds,
  plainPhotoConversion,
  round,
  squareCrop,
  workerUpscaler,
} from '../lib/worker-speed';
import { WARMUPS } from '../lib/worker-child';
import { InferenceRuntime } from '../../worker/src/inference';
import { upscaleImage } from '../../worker/src/pipelines/upscale';

const FIXTURES = path.resolve(__dirname, '..', '..', 'worker', 'src', 'test-support', 'fixtures');
const CROP = sized(384, 48);
const ROUNDS = Number(process.env.BENCH_RUNS ?? sized(5, 1));
const X2_SIZE = sized(1024, 96);
const RB_SIZE = sized(1024, 128);

export default async function run(): Promise<BenchSection> {
  const startLoad = load1();
  const runtime = await InferenceRuntime.start({
    providers: ['cpu'],
    requireGpu: false,
    cpuThreads: os.availableParallelism(),
  });
  try {
    const photo = await photoFigures(runtime);
    const rb = await backgroundRemovalFigures(runtime);
    return {
      name: 'worker-speed',
      rows: [...photo.rows, ...rb.rows],
      goals: SMOKE ? [] : [...photo.goals, ...rb.goals],
      notes: [
        `1-minute load average at the start ${startLoad}, at the end ${load1()}; ${os.availableParallelism()} cores`,
        ...photo.notes,
      ],
    };
  } finally {
    await runtime.close();
  }
}

async function photoFigures(runtime: InferenceRuntime) {
  const x4 = await workerUpscaler(runtime, 4);
  const plain = await ort.InferenceSession.create(await plainPhotoConversion(), { logSeverityLevel: 3 });
  const crop = await squareCrop(path.join(FIXTURES, 'coffee.png'), CROP);
  const { rounds, psnrDb } = await photoRounds(x4, plain, crop, CROP, ROUNDS);
  await plain.release();
  const ratio = median(rounds.map((r) => r.oursMs / r.plainMs));
  const bareRatio = median(rounds.map((r) => r.oursBareMs / r.plainMs));

  // The 4096^2 x2 estimate, from one run after an untimed one (the worker's own x2: x4 tiles halved).
  const x2 = await workerUpscaler(runtime, 2);
  const input = await sharp(path.join(FIXTURES, 'coffee.png'))
    .resize(X2_SIZE, X2_SIZE, { fit: 'fill' })
    .png({ compressionLevel: 1 })
    .toBuffer();
  await upscaleImage(x2, input, { outputFormat: 'png' });
  const t = performance.now();
  const out = await upscaleImage(x2, input, { outputFormat: 'png' });
  const x2Ms = performance.now() - t;
  const bigS = estimateBig(x2, { size: X2_SIZE, ms: x2Ms, inferMs: out.timings.infer! }) / 1000;
  const x2Load = load1();

  const rows = [
    ...rounds.map((r, i) => ({
      measure: `photo x4 ${CROP}^2, round ${i + 1}: ours end to end / ours bare / plain conversion bare (ms)`,
      value: `${round(r.oursMs)} / ${round(r.oursBareMs)} / ${round(r.plainMs)}`,
      ratio: round(r.oursMs / r.plainMs, 2),
      load_1m: r.load1,
    })),
    {
      measure: `photo x4 ${CROP}^2: median ratio ours end to end / plain bare (ours bare / plain bare)`,
      value: `${round(ratio, 2)} (${round(bareRatio, 2)})`,
      ratio: round(ratio, 2),
      load_1m: rounds.at(-1)!.load1,
    },
    { measure: 'photo x4 PSNR vs the plain conversion (dB)', value: round(psnrDb, 1), ratio: '-', load_1m: '-' },
    {
      measure: `photo x2 ${X2_SIZE}^2 end to end (inference) ms -> 4096^2 x2 estimate (s)`,
      value: `${round(x2Ms)} (${round(out.timings.infer!)}) -> ${round(bigS, 1)}`,
      ratio: '-',
      load_1m: x2Load,
    },
  ];
  const goals: BenchGoal[] = [
    {
      label: `photo x4 ${CROP}^2 end to end over bare onnxruntime on the plain conversion`,
      value: round(ratio, 2),
      target: '<= 0.7',
      met: ratio <= 0.7,
    },
    {
      label: 'photo x4 PSNR vs the plain conversion (dB)',
      value: round(psnrDb, 1),
      target: '>= 45',
      met: psnrDb >= 45,
    },
    { label: 'photo 4096^2 x2, estimated (s)', value: round(bigS, 1), target: '< 100', met: bigS < 100 },
  ];
  return {
    rows,
    goals,
    notes: [`photo: ${ROUNDS} alternating rounds; ${isFinite(psnrDb) ? '' : 'identical bytes; '}tile ${x4.tileSize}`],
  };
}

async function backgroundRemovalFigures(runtime: InferenceRuntime) {
  const input = await sharp(path.join(FIXTURES, 'coffee-300.png'))
    .resize(RB_SIZE, RB_SIZE, { fit: 'fill' })
    .jpeg({ quality: 90 })
    .toBuffer();
  const rb = await backgroundRemovalStages(runtime, input, WARMUPS, ROUNDS);
  const rows: BenchSection['rows'] = Object.entries(rb.stages).map(([stage, ms]) => ({
    measure: `remove-background ${RB_SIZE}^2 stage ${stage} (median ms)`,
    value: round(ms, 1),
    ratio: round(ms / rb.e2eMs, 3),
    load_1m: '-',
  }));
  rows.push({
    measure: `remove-background ${RB_SIZE}^2: end to end / bare inference (median ms); overhead share of end to end`,
    value: `${round(rb.e2eMs)} / ${round(rb.bareMs)}; ${round(rb.overheadShare * 100, 1)} %`,
    ratio: round(rb.overheadShare, 3),
    load_1m: rb.load1,
  });
  const goals: BenchGoal[] = [
    {
      label: 'background removal: the worker own share of end to end (%)',
      value: round(rb.overheadShare * 100, 1),
      target: '< 10',
      met: rb.overheadShare < 0.1,
    },
  ];
  return { rows, goals };
}

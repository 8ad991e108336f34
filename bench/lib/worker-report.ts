import { DEFAULT_UPSCALE_MODEL } from '@imagestudio/contracts';
import { type ChildResult, RB_INT8, RB_MODEL } from './worker-child';
import type { BenchGoal, BenchSection } from './types';
import type { QualityRow } from './upscale-quality';

/** The worker bench's table and goals from what its children measured (bench/sections/worker.ts). */

/** Everything one worker bench run measured. */
export interface WorkerMeasures {
  rbOurs: ChildResult;
  rbPeer: ChildResult;
  /** The int8 background removal, when its file is prepared. */
  int8?: { rb: ChildResult; mattes: NonNullable<ChildResult['mattes']>; peerMedium: ChildResult };
  int8Iou?: { peerMedium: number; fp32Min: number; madMax: number };
  upOurs: ChildResult;
  upPeer: ChildResult;
  big: ChildResult;
  speed: { model: string; size: number; result: ChildResult }[];
  quality: QualityRow[];
  /** Our matte against imgly's. */
  iou: number;
  /** Our x4 upscale against UpscalerJS's output. */
  upPsnr: number;
}

export const round = (x: number, d = 0) => Math.round(x * 10 ** d) / 10 ** d;

export function workerRows(m: WorkerMeasures): BenchSection['rows'] {
  const { rbOurs, rbPeer, int8, upOurs, upPeer, big, speed, quality } = m;
  return [
    {
      tool: `remove-background 1024^2 (ours, ${RB_MODEL})`,
      e2e_ms: round(rbOurs.ms),
      bare_ms: round(rbOurs.bareMs!),
      overhead_pct: round(rbOurs.overheadPct!, 1),
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
      overhead_pct: round(upOurs.overheadPct!, 1),
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
  ];
}

export function workerGoals(m: WorkerMeasures): BenchGoal[] {
  const { rbOurs, rbPeer, int8, int8Iou, upOurs, upPeer, big, speed, quality, iou, upPsnr } = m;
  const rbSpeedup = rbPeer.ms / rbOurs.ms;
  const rbOverhead = rbOurs.overheadPct!;
  const upSpeedup = upPeer.ms / upOurs.ms;
  const bigRssGiB = big.maxRssMiB / 1024;
  const photo512 = speed.find((r) => r.model === DEFAULT_UPSCALE_MODEL && r.size === 512)!.result;
  const q = (method: string) => quality.find((r) => r.method === method)!;
  const photoGain = q(DEFAULT_UPSCALE_MODEL).jpeg.ssim - q('bicubic').jpeg.ssim;
  return [
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
  ];
}

/**
 * Generation: the pipeline's own cost per denoising step around the ONNX runs (latent scaling, batching,
 * guidance, scheduler step, the inference-thread hop), measured on the tiny random-weight models the tests
 * build, at SD's 64x64 latent (512x512 px). The UNet itself is trivial here, so "ours" is what remains when
 * onnxruntime's own run time is subtracted. Real weights are the operator's (worker/src/generation/README.md).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadGenerationModel } from '../../worker/src/generation/generation-model';
import { generateImages } from '../../worker/src/generation/pipeline';
import { buildTinyGenerationModel } from '../../worker/src/generation/test-support/tiny-model';
import { InferenceRuntime } from '../../worker/src/inference';
import { sized } from '../lib/smoke';
import type { BenchSection } from '../lib/types';

const STEPS = sized(20, 2);
/** Small next to a GPU UNet step at 512^2 (tens of ms): our share stays a few percent. */
const OVERHEAD_TARGET_MS = 5;

export default async function generation(): Promise<BenchSection> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-gen-'));
  const runtime = await InferenceRuntime.start({
    providers: ['cpu'],
    requireGpu: false,
    cpuThreads: Math.min(2, os.availableParallelism()),
  });
  const rows: BenchSection['rows'] = [];
  let worst = 0;
  try {
    await buildTinyGenerationModel(dir);
    const cases = (
      [
        [1, 0, 'euler'],
        [1, 7.5, 'euler'],
        [4, 7.5, 'euler'],
        [4, 0, 'euler-ancestral'],
        [4, 1, 'lcm'],
      ] as const
    ).slice(0, sized(5, 1));
    for (const [count, guidance, scheduler] of cases) {
      const steps = scheduler === 'lcm' ? 8 : STEPS;
      const loaded = await loadGenerationModel(dir, runtime, { steps, guidance, scheduler });
      // SD's native 64x64 latent, so array work per step is what a 512^2 job does.
      const model = { ...loaded, sizing: { ...loaded.sizing, native: { height: 64, width: 64 } } };
      const request = {
        prompt: 'a photo of a red fox in the snow',
        negativePrompt: 'blurry',
        count,
        seed: 1,
        width: 512,
        height: 512,
      };
      await generateImages(model, { ...request, count: 1 }); // warm-up
      const samples: { step: number; onnx: number }[] = [];
      for (let i = 0; i < 3; i += 1) {
        const out = await generateImages(model, request);
        samples.push({ step: out.timings.denoise / steps, onnx: out.timings.unet / steps });
      }
      samples.sort((a, b) => a.step - b.step);
      const median = samples[1]!;
      const ours = median.step - median.onnx;
      worst = Math.max(worst, ours / count);
      rows.push({
        scheduler,
        images: count,
        guidance: guidance > 1 ? guidance : 'off',
        latent: '4x64x64',
        'step ms': round(median.step),
        'onnx ms': round(median.onnx),
        'ours ms': round(ours),
      });
      await Promise.all([
        loaded.textEncoder.session.release(),
        loaded.unet.session.release(),
        loaded.vae.session.release(),
      ]);
    }
  } finally {
    await runtime.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
  return {
    name: 'generation',
    rows,
    goals: [
      {
        label: 'pipeline overhead per denoising step per image (worst row above, median of 3)',
        value: round(worst),
        target: `< ${OVERHEAD_TARGET_MS} ms`,
        met: worst < OVERHEAD_TARGET_MS,
      },
    ],
    notes: [
      `tiny random-weight models (tests' buildTinyGenerationModel), CPU, ${STEPS} steps (LCM 8); 'onnx ms' is time inside onnxruntime's run`,
      'per-image time at 512^2 with real weights needs an operator-provided export and a GPU; not measured here',
    ],
  };
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}

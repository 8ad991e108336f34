import type { SeededRandom } from '../rng';
import { alphasCumprod } from './noise-schedule';
import type { Scheduler } from './scheduler';
import type { SchedulerConfig } from './scheduler-config';

const SIGMA_DATA = 0.5;

/**
 * Latent Consistency Model multistep sampling, as diffusers' LCMScheduler: each step predicts the clean
 * latents through the consistency boundary condition, then re-noises them to the next (earlier) timestep.
 */
export function createLcmScheduler(config: SchedulerConfig, steps: number): Scheduler {
  const original = config.original_inference_steps;
  if (steps > original) throw new Error(`LCM: ${steps} steps exceed original_inference_steps (${original})`);
  const alphas = alphasCumprod(config);
  const k = Math.floor(config.num_train_timesteps / original);
  // The teacher's timesteps, latest first; the schedule takes `steps` evenly spaced of them.
  const origin = Array.from({ length: original }, (_, i) => (original - i) * k - 1);
  const timesteps = Array.from({ length: steps }, (_, i) => origin[Math.floor((i * original) / steps)]!);
  const finalAlpha = config.set_alpha_to_one ? 1 : alphas[0]!;

  return {
    kind: 'lcm',
    timesteps,
    initNoiseSigma: 1,
    inputScale: () => 1,
    step(step, modelOutput, sample, rng: SeededRandom) {
      const t = timesteps[step]!;
      const last = step === steps - 1;
      const prevT = last ? t : timesteps[step + 1]!;
      const alphaT = alphas[t]!;
      const alphaPrev = prevT >= 0 ? alphas[prevT]! : finalAlpha;
      const scaled = t * config.timestep_scaling;
      const cSkip = SIGMA_DATA ** 2 / (scaled ** 2 + SIGMA_DATA ** 2);
      const cOut = scaled / Math.sqrt(scaled ** 2 + SIGMA_DATA ** 2);
      const [sa, sb] = [Math.sqrt(alphaT), Math.sqrt(1 - alphaT)];
      const out = new Float32Array(sample.length);
      for (let i = 0; i < sample.length; i += 1) {
        const x = sample[i]!;
        const m = modelOutput[i]!;
        const x0 =
          config.prediction_type === 'epsilon'
            ? (x - sb * m) / sa
            : config.prediction_type === 'v_prediction'
              ? sa * x - sb * m
              : m;
        out[i] = cOut * x0 + cSkip * x;
      }
      if (last) return out;
      const [na, nb] = [Math.sqrt(alphaPrev), Math.sqrt(1 - alphaPrev)];
      for (let i = 0; i < out.length; i += 1) out[i] = na * out[i]! + nb * rng.nextGaussian();
      return out;
    },
  };
}

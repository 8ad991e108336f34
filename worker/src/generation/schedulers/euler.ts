import type { SeededRandom } from '../rng';
import { alphasCumprod, sigmaAt, spacedTimesteps } from './noise-schedule';
import type { Scheduler } from './scheduler';
import type { SchedulerConfig } from './scheduler-config';

/**
 * Euler (Karras et al. 2022, algorithm 2 without churn) and its ancestral variant, as diffusers'
 * EulerDiscreteScheduler / EulerAncestralDiscreteScheduler. One step with trailing spacing is SD-Turbo.
 */
export function createEulerScheduler(config: SchedulerConfig, steps: number, ancestral: boolean): Scheduler {
  const alphas = alphasCumprod(config);
  const timesteps = spacedTimesteps(config, steps);
  const sigmas = [...timesteps.map((t) => sigmaAt(alphas, t)), 0];
  const maxSigma = Math.max(...sigmas);
  const initNoiseSigma = config.timestep_spacing === 'leading' ? Math.sqrt(maxSigma * maxSigma + 1) : maxSigma;

  return {
    kind: ancestral ? 'euler-ancestral' : 'euler',
    timesteps,
    initNoiseSigma,
    inputScale: (step) => 1 / Math.sqrt(sigmas[step]! ** 2 + 1),
    step(step, modelOutput, sample, rng: SeededRandom) {
      const sigma = sigmas[step]!;
      const next = sigmas[step + 1]!;
      let target = next;
      let sigmaUp = 0;
      if (ancestral) {
        sigmaUp = Math.sqrt((next * next * (sigma * sigma - next * next)) / (sigma * sigma));
        target = Math.sqrt(next * next - sigmaUp * sigmaUp);
      }
      const dt = target - sigma;
      const out = new Float32Array(sample.length);
      for (let i = 0; i < sample.length; i += 1) {
        const x = sample[i]!;
        const x0 = predictOriginal(config.prediction_type, x, modelOutput[i]!, sigma);
        out[i] = x + ((x - x0) / sigma) * dt;
      }
      if (sigmaUp > 0) for (let i = 0; i < out.length; i += 1) out[i]! += rng.nextGaussian() * sigmaUp;
      return out;
    },
  };
}

/** x0 from the model output under the sigma ("variance exploding") parametrisation. */
function predictOriginal(type: SchedulerConfig['prediction_type'], x: number, out: number, sigma: number): number {
  if (type === 'epsilon') return x - sigma * out;
  if (type === 'v_prediction') return out * (-sigma / Math.sqrt(sigma * sigma + 1)) + x / (sigma * sigma + 1);
  return out;
}

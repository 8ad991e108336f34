import type { SchedulerConfig } from './scheduler-config';

/** Cumulative products of (1 - beta) over the training timesteps, as diffusers computes them. */
export function alphasCumprod(config: SchedulerConfig): Float64Array {
  const n = config.num_train_timesteps;
  const betas = new Float64Array(n);
  if (config.beta_schedule === 'squaredcos_cap_v2') {
    // Cosine schedule (Nichol & Dhariwal), betas capped at 0.999.
    const alphaBar = (t: number) => Math.cos(((t + 0.008) / 1.008) * (Math.PI / 2)) ** 2;
    for (let i = 0; i < n; i += 1) betas[i] = Math.min(1 - alphaBar((i + 1) / n) / alphaBar(i / n), 0.999);
  } else {
    const sqrt = config.beta_schedule === 'scaled_linear';
    const [a, b] = sqrt
      ? [Math.sqrt(config.beta_start), Math.sqrt(config.beta_end)]
      : [config.beta_start, config.beta_end];
    for (let i = 0; i < n; i += 1) {
      const v = n === 1 ? a : a + ((b - a) * i) / (n - 1);
      betas[i] = sqrt ? v * v : v;
    }
  }
  const out = new Float64Array(n);
  let product = 1;
  for (let i = 0; i < n; i += 1) {
    product *= 1 - betas[i]!;
    out[i] = product;
  }
  return out;
}

/** The descending timesteps of an `steps`-step schedule under the config's `timestep_spacing`. */
export function spacedTimesteps(config: SchedulerConfig, steps: number): number[] {
  const n = config.num_train_timesteps;
  const out: number[] = [];
  if (config.timestep_spacing === 'linspace') {
    for (let i = 0; i < steps; i += 1) out.push(steps === 1 ? 0 : ((n - 1) * i) / (steps - 1));
    return out.reverse();
  }
  if (config.timestep_spacing === 'leading') {
    const ratio = Math.floor(n / steps);
    for (let i = 0; i < steps; i += 1) out.push(i * ratio + config.steps_offset);
    return out.reverse();
  }
  // trailing: count down from the last training step in equal strides (SD-Turbo's one step is t = 999).
  const ratio = n / steps;
  for (let t = n; t > 0; t -= ratio) out.push(roundHalfEven(t) - 1);
  return out.slice(0, steps);
}

/** numpy's round(): halves go to the even neighbour, so 937.5 -> 938 but 812.5 -> 812. */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff !== 0.5) return Math.round(x);
  return floor % 2 === 0 ? floor : floor + 1;
}

/** Noise level sigma = sqrt((1 - abar) / abar) at a possibly fractional timestep, linearly interpolated. */
export function sigmaAt(alphas: Float64Array, t: number): number {
  const sigma = (i: number) => Math.sqrt((1 - alphas[i]!) / alphas[i]!);
  const lo = Math.max(0, Math.min(alphas.length - 1, Math.floor(t)));
  const hi = Math.min(alphas.length - 1, lo + 1);
  const frac = t - lo;
  return sigma(lo) + (sigma(hi) - sigma(lo)) * frac;
}

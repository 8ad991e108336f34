import type { SeededRandom } from '../rng';
import { createScheduler, parseSchedulerConfig } from './index';
import { alphasCumprod, roundHalfEven, spacedTimesteps } from './noise-schedule';

/** SD-Turbo's scheduler/scheduler_config.json (the SD 2.x values with trailing spacing). */
const TURBO = parseSchedulerConfig({
  _class_name: 'EulerDiscreteScheduler',
  beta_start: 0.00085,
  beta_end: 0.012,
  beta_schedule: 'scaled_linear',
  num_train_timesteps: 1000,
  prediction_type: 'epsilon',
  steps_offset: 1,
  timestep_spacing: 'trailing',
});

/** A stand-in generator that returns the given values in turn, so noise terms can be computed by hand. */
function fixedNoise(...values: number[]): SeededRandom {
  let i = 0;
  return { nextGaussian: () => values[i++ % values.length]! } as unknown as SeededRandom;
}

/** sigma(t) straight from its definition, with the betas written out, for independent expected values. */
function sigmaByHand(t: number): number {
  let abar = 1;
  for (let i = 0; i <= t; i += 1) {
    const beta = (Math.sqrt(0.00085) + ((Math.sqrt(0.012) - Math.sqrt(0.00085)) * i) / 999) ** 2;
    abar *= 1 - beta;
  }
  return Math.sqrt((1 - abar) / abar);
}

describe('noise schedule', () => {
  it('reproduces Stable Diffusion sigma range (0.0292 .. 14.6146)', () => {
    const a = alphasCumprod(TURBO);
    expect(a[0]).toBeCloseTo(1 - 0.00085, 12);
    expect(Math.sqrt((1 - a[999]!) / a[999]!)).toBeCloseTo(14.6146, 3);
    expect(Math.sqrt((1 - a[0]!) / a[0]!)).toBeCloseTo(0.0292, 4);
  });

  it('spaces timesteps the way diffusers does', () => {
    expect(spacedTimesteps(TURBO, 1)).toEqual([999]);
    expect(spacedTimesteps(TURBO, 4)).toEqual([999, 749, 499, 249]);
    // numpy rounds halves to even: 937.5 -> 938, 812.5 -> 812.
    expect(spacedTimesteps(TURBO, 16)).toEqual([
      999, 937, 874, 811, 749, 687, 624, 561, 499, 437, 374, 311, 249, 187, 124, 61,
    ]);
    expect(spacedTimesteps({ ...TURBO, timestep_spacing: 'leading' }, 4)).toEqual([751, 501, 251, 1]);
    expect(spacedTimesteps({ ...TURBO, timestep_spacing: 'linspace' }, 3)).toEqual([999, 499.5, 0]);
    expect([roundHalfEven(2.5), roundHalfEven(3.5), roundHalfEven(1.4), roundHalfEven(1.6)]).toEqual([2, 4, 1, 2]);
  });

  it('reads diffusers defaults and refuses Karras sigmas', () => {
    const c = parseSchedulerConfig({ _class_name: 'LCMScheduler', extra_field: 1 });
    expect(c).toMatchObject({
      num_train_timesteps: 1000,
      beta_schedule: 'linear',
      timestep_spacing: 'linspace',
      original_inference_steps: 50,
    });
    expect(() => parseSchedulerConfig({ use_karras_sigmas: true })).toThrow(/karras/);
  });
});

describe('Euler', () => {
  it('one-step turbo: noise sigma 14.6146 at t=999 and x0 = x - sigma * eps', () => {
    const s = createScheduler('euler', TURBO, 1);
    expect(s.timesteps).toEqual([999]);
    expect(s.initNoiseSigma).toBeCloseTo(14.6146, 3);
    expect(s.inputScale(0)).toBeCloseTo(1 / Math.sqrt(14.6146 ** 2 + 1), 5);
    const out = s.step(0, Float32Array.from([0.5, -1]), Float32Array.from([1, 2]), fixedNoise(0));
    expect(out[0]).toBeCloseTo(1 - 14.6146 * 0.5, 2);
    expect(out[1]).toBeCloseTo(2 + 14.6146, 2);
  });

  it('multi-step: moves along the derivative from sigma_i to sigma_i+1', () => {
    const s = createScheduler('euler', TURBO, 2);
    expect(s.timesteps).toEqual([999, 499]);
    const [s0, s1] = [sigmaByHand(999), sigmaByHand(499)];
    expect(s.inputScale(1)).toBeCloseTo(1 / Math.sqrt(s1 * s1 + 1), 6);
    // x = 3, eps = 0.2: derivative (x - x0) / sigma = eps, so x' = x + eps * (s1 - s0).
    const out = s.step(0, Float32Array.from([0.2]), Float32Array.from([3]), fixedNoise(0));
    expect(out[0]).toBeCloseTo(3 + 0.2 * (s1 - s0), 4);
  });

  it('interpolates sigma at fractional timesteps and scales the first noise by sqrt(sigma^2+1) with leading spacing', () => {
    const lin = createScheduler('euler', { ...TURBO, timestep_spacing: 'linspace' }, 3);
    expect(lin.timesteps[1]).toBe(499.5);
    const mid = (sigmaByHand(499) + sigmaByHand(500)) / 2;
    expect(lin.inputScale(1)).toBeCloseTo(1 / Math.sqrt(mid * mid + 1), 6);
    const lead = createScheduler('euler', { ...TURBO, timestep_spacing: 'leading' }, 4);
    const top = sigmaByHand(751);
    expect(lead.initNoiseSigma).toBeCloseTo(Math.sqrt(top * top + 1), 4);
  });

  it('v-prediction recovers x0 = x / (sigma^2+1) - v * sigma / sqrt(sigma^2+1)', () => {
    const s = createScheduler('euler', { ...TURBO, prediction_type: 'v_prediction' }, 1);
    const sigma = sigmaByHand(999);
    const out = s.step(0, Float32Array.from([0.3]), Float32Array.from([5]), fixedNoise(0));
    expect(out[0]).toBeCloseTo(5 / (sigma * sigma + 1) - (0.3 * sigma) / Math.sqrt(sigma * sigma + 1), 5);
  });
});

describe('Euler ancestral', () => {
  it('steps to sigma_down and adds sigma_up of fresh noise', () => {
    const s = createScheduler('euler-ancestral', TURBO, 2);
    const [s0, s1] = [sigmaByHand(999), sigmaByHand(499)];
    const up = Math.sqrt((s1 * s1 * (s0 * s0 - s1 * s1)) / (s0 * s0));
    const down = Math.sqrt(s1 * s1 - up * up);
    const out = s.step(0, Float32Array.from([0.2, 0.2]), Float32Array.from([3, 3]), fixedNoise(1, -2));
    expect(out[0]).toBeCloseTo(3 + 0.2 * (down - s0) + up, 4);
    expect(out[1]).toBeCloseTo(3 + 0.2 * (down - s0) - 2 * up, 4);
  });

  it('adds no noise on the last step (sigma_next = 0)', () => {
    const s = createScheduler('euler-ancestral', TURBO, 1);
    const out = s.step(0, Float32Array.from([0.5]), Float32Array.from([1]), fixedNoise(100));
    expect(out[0]).toBeCloseTo(1 - 14.6146 * 0.5, 2);
  });
});

describe('LCM', () => {
  const LCM = parseSchedulerConfig({
    _class_name: 'LCMScheduler',
    beta_start: 0.00085,
    beta_end: 0.012,
    beta_schedule: 'scaled_linear',
    original_inference_steps: 50,
    timestep_scaling: 10,
    set_alpha_to_one: true,
  });

  it('picks evenly spaced teacher timesteps (4 steps: 999, 759, 499, 259)', () => {
    const s = createScheduler('lcm', LCM, 4);
    expect(s.timesteps).toEqual([999, 759, 499, 259]);
    expect(s.initNoiseSigma).toBe(1);
    expect(s.inputScale(2)).toBe(1);
    expect(createScheduler('lcm', LCM, 1).timesteps).toEqual([999]);
    expect(() => createScheduler('lcm', LCM, 51)).toThrow(/original_inference_steps/);
  });

  it('denoises through the boundary condition, then re-noises to the next timestep', () => {
    const s = createScheduler('lcm', LCM, 2);
    expect(s.timesteps).toEqual([999, 499]);
    const a = alphasCumprod(LCM);
    const [a999, a499] = [a[999]!, a[499]!];
    const x = 0.7;
    const eps = -0.4;
    const x0 = (x - Math.sqrt(1 - a999) * eps) / Math.sqrt(a999);
    const cSkip = 0.25 / (9990 ** 2 + 0.25);
    const cOut = 9990 / Math.sqrt(9990 ** 2 + 0.25);
    const denoised = cOut * x0 + cSkip * x;
    const out = s.step(0, Float32Array.from([eps]), Float32Array.from([x]), fixedNoise(1.5));
    expect(out[0]).toBeCloseTo(Math.sqrt(a499) * denoised + Math.sqrt(1 - a499) * 1.5, 5);
  });

  it('returns the denoised sample on the last step without noise', () => {
    const s = createScheduler('lcm', LCM, 2);
    const a499 = alphasCumprod(LCM)[499]!;
    const x0 = (0.7 - Math.sqrt(1 - a499) * -0.4) / Math.sqrt(a499);
    const out = s.step(1, Float32Array.from([-0.4]), Float32Array.from([0.7]), fixedNoise(99));
    const cSkip = 0.25 / (4990 ** 2 + 0.25);
    const cOut = 4990 / Math.sqrt(4990 ** 2 + 0.25);
    expect(out[0]).toBeCloseTo(cOut * x0 + cSkip * 0.7, 5);
  });
});

describe('createScheduler', () => {
  it('refuses non-positive step counts', () => {
    expect(() => createScheduler('euler', TURBO, 0)).toThrow(/positive integer/);
  });
});

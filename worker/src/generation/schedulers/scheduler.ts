import type { SeededRandom } from '../rng';
import type { SchedulerKind } from './scheduler-config';

/**
 * One denoising schedule, already set to a number of steps. Stateless between calls: every image of a
 * batch is stepped with its own random generator, so an image does not depend on what it was batched with.
 */
export interface Scheduler {
  readonly kind: SchedulerKind;
  /** The UNet's timestep input at each step, descending. */
  readonly timesteps: readonly number[];
  /** Standard deviation of the starting latents: initial noise is randn * this. */
  readonly initNoiseSigma: number;
  /** Factor applied to the latents before they go into the UNet at `step`. */
  inputScale(step: number): number;
  /** The latents after `step`, from the UNet's (guided) output at that step. */
  step(step: number, modelOutput: Float32Array, sample: Float32Array, rng: SeededRandom): Float32Array;
}

import { createEulerScheduler } from './euler';
import { createLcmScheduler } from './lcm';
import type { Scheduler } from './scheduler';
import type { SchedulerConfig, SchedulerKind } from './scheduler-config';

export type { Scheduler } from './scheduler';
export * from './scheduler-config';

/** A scheduler of `kind` set to `steps` steps under the model's scheduler config. */
export function createScheduler(kind: SchedulerKind, config: SchedulerConfig, steps: number): Scheduler {
  if (!Number.isInteger(steps) || steps < 1) throw new Error(`steps must be a positive integer, got ${steps}`);
  if (kind === 'lcm') return createLcmScheduler(config, steps);
  return createEulerScheduler(config, steps, kind === 'euler-ancestral');
}

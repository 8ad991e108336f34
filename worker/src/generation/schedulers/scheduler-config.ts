import { z } from 'zod';

/** Scheduler kinds this pipeline runs; diffusers class names map onto them. */
export const SCHEDULER_KINDS = ['euler', 'euler-ancestral', 'lcm'] as const;
export type SchedulerKind = (typeof SCHEDULER_KINDS)[number];

const CLASS_TO_KIND: Record<string, SchedulerKind> = {
  EulerDiscreteScheduler: 'euler',
  EulerAncestralDiscreteScheduler: 'euler-ancestral',
  LCMScheduler: 'lcm',
};

/**
 * The fields of diffusers' `scheduler/scheduler_config.json` that these schedulers use, with diffusers'
 * defaults. Unknown fields are ignored; DDIM/PNDM-only fields do not matter for Euler and LCM.
 */
export const schedulerConfigSchema = z.object({
  _class_name: z.string().optional(),
  num_train_timesteps: z.number().int().positive().default(1000),
  beta_start: z.number().positive().default(0.0001),
  beta_end: z.number().positive().default(0.02),
  beta_schedule: z.enum(['linear', 'scaled_linear', 'squaredcos_cap_v2']).default('linear'),
  prediction_type: z.enum(['epsilon', 'v_prediction', 'sample']).default('epsilon'),
  timestep_spacing: z.enum(['linspace', 'leading', 'trailing']).default('linspace'),
  steps_offset: z.number().int().min(0).default(0),
  /** LCM: the teacher's step count the distilled timesteps are drawn from. */
  original_inference_steps: z.number().int().positive().default(50),
  /** LCM: scales the timestep in the boundary-condition weights. */
  timestep_scaling: z.number().positive().default(10),
  set_alpha_to_one: z.boolean().default(true),
  use_karras_sigmas: z.boolean().default(false),
});
export type SchedulerConfig = z.infer<typeof schedulerConfigSchema>;

/** Parses a scheduler_config.json object, filling diffusers' defaults. */
export function parseSchedulerConfig(json: unknown): SchedulerConfig {
  const config = schedulerConfigSchema.parse(json);
  if (config.use_karras_sigmas) throw new Error('scheduler_config.json: use_karras_sigmas is not supported');
  return config;
}

/** The scheduler kind a config names, or undefined for classes this pipeline does not implement. */
export function kindOfClass(className: string | undefined): SchedulerKind | undefined {
  return className ? CLASS_TO_KIND[className] : undefined;
}

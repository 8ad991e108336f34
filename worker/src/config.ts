import os from 'node:os';
import { z } from 'zod';
import { executionProviderSchema } from '@imagestudio/contracts';
import {
  envBool,
  envToolList,
  fromProjectRoot,
  parseEnv,
  processEnv,
  projectRoot,
  queueEnv,
  s3Env,
} from '@imagestudio/runtime';
import { contentCredentialsEnv } from './content-credentials/env';

/**
 * The worker process's configuration: every environment variable it reads, validated once at boot.
 * Nothing else in the worker reads process.env. The queue and S3_* variables are the API's (both take them from
 * @imagestudio/runtime), except that the worker never starts an embedded S3 server: it needs S3_ENDPOINT.
 */

/** WORKER_WARMUP_RUNS by default, and the benchmark's untimed runs per tool, ours and the peers' alike. */
export const DEFAULT_WARMUP_RUNS = 2;

/** "cuda,webgpu,cpu" -> ['cuda', 'webgpu', 'cpu'], in the operator's order of preference. */
const providerList = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((p) => p.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(executionProviderSchema).min(1))
  .refine((list) => new Set(list).size === list.length, 'lists a provider twice');

/** "0.485,0.456,0.406" -> [0.485, 0.456, 0.406]: one value per colour channel, R, G, B. */
const rgbTriple = z
  .string()
  .transform((s) => s.split(',').map((v) => Number(v.trim())))
  .pipe(
    z.tuple([z.number().finite(), z.number().finite(), z.number().finite()], { error: 'needs three numbers: R,G,B' }),
  );

const envSchema = z
  .object({
    ...processEnv,
    ...queueEnv,

    S3_ENDPOINT: z
      .string({
        error:
          "is required: the worker reads inputs from and writes results to S3 (npm start passes the API's embedded one)",
      })
      .url(),
    ...s3Env,

    /** Ordered preference of onnxruntime execution providers; the first that loads is used. */
    WORKER_EXECUTION_PROVIDERS: providerList.default(['cpu']),
    /** Refuse to start unless a GPU provider (cuda or webgpu) loads: no silent CPU fallback. */
    WORKER_REQUIRE_GPU: envBool.default(false),
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
    /** CPU intra-op threads; defaults to the machine's cores. */
    WORKER_CPU_THREADS: z.coerce.number().int().min(1).max(256).optional(),
    /**
     * Untimed runs of each background-removal and upscaling model at start, before the worker takes jobs: the
     * first runs of a model are slower than the rest (worker/src/pipelines/warm-up.ts). 0 = none.
     */
    WORKER_WARMUP_RUNS: z.coerce.number().int().min(0).max(10).default(DEFAULT_WARMUP_RUNS),
    /**
     * Seconds without a heartbeat written to Redis after which the worker logs "watchdog: no heartbeat
     * written; ..." and kills itself, so that its supervisor starts a fresh one. 0 = no watchdog.
     */
    WORKER_WATCHDOG_S: z.coerce.number().int().min(0).max(3600).default(30),
    /**
     * Seconds a stopping worker (SIGTERM, SIGINT) lets its running jobs finish; jobs still running then go back
     * to the queue at once for another worker. A supervisor's kill timeout must be longer (Kubernetes'
     * terminationGracePeriodSeconds: this plus about 15 s for the heartbeat, models and connections).
     */
    WORKER_SHUTDOWN_GRACE_S: z.coerce.number().int().min(1).max(3600).default(60),
    /**
     * Which file of a model runs (worker/src/inference/precision.ts): auto = the int8 file on a CPU with VNNI or
     * AMX when it is prepared, fp32 otherwise and on GPU providers; fp32 / int8 force one (int8 falls back to
     * fp32 when its file is missing).
     */
    WORKER_PRECISION: z.enum(['auto', 'fp32', 'int8']).default('auto'),
    /** Folder of the prepared models (`npm run models`). */
    MODELS_DIR: z.string().default('models/.cache'),
    /**
     * An operator's own background-removal ONNX file, relative to MODELS_DIR (models/README.md "Bring your own
     * matting model"): checked at start and offered as the `hq` model when it passes; unset = no `hq`.
     */
    WORKER_MATTING_MODEL_FILE: z.string().min(1).optional(),
    /** Its square input side in pixels (BiRefNet: 1024). */
    WORKER_MATTING_MODEL_SIZE: z.coerce.number().int().min(64).max(4096).default(1024),
    /** Per-channel R,G,B mean and std on 0..1 pixel values (ImageNet's, as BiRefNet was trained). */
    WORKER_MATTING_MODEL_MEAN: rgbTriple.default([0.485, 0.456, 0.406]),
    WORKER_MATTING_MODEL_STD: rgbTriple
      .refine((std) => std.every((v) => v > 0), 'needs three numbers above 0')
      .default([0.229, 0.224, 0.225]),
    /** What its first output holds: logits (a sigmoid is applied here; BiRefNet's export) or 0..1 probabilities. */
    WORKER_MATTING_MODEL_OUTPUT: z.enum(['logits', 'probabilities']).default('logits'),
    /** Operator-provided text-to-image ONNX export (diffusers layout); unset = generation not available. */
    GENERATION_MODEL_DIR: z.string().optional(),
    /** Denoising steps; unset = the model's kind decides (1 for turbo exports, 4 for LCM, else 25). */
    GENERATION_STEPS: z.coerce.number().int().min(1).max(150).optional(),
    /** Classifier-free guidance scale; > 1 turns guidance on. Unset = 0 for turbo exports, 1 for LCM, else 7.5. */
    GENERATION_GUIDANCE: z.coerce.number().min(0).max(30).optional(),
    /** Overrides the scheduler of scheduler_config.json: euler, euler-ancestral or lcm. */
    GENERATION_SCHEDULER: z.enum(['euler', 'euler-ancestral', 'lcm']).optional(),
    /** Base URL of an OpenAI-compatible images API (`<url>/images/generations`); set = generation through it. */
    GENERATION_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    /** Sent as `Authorization: Bearer`; never logged. Unset for servers that take no key. */
    GENERATION_API_KEY: z.string().optional(),
    GENERATION_API_MODEL: z.string().min(1).max(100).default('gpt-image-1'),
    /** Generation jobs this worker sends to the API at once, on top of WORKER_CONCURRENCY for local models. */
    GENERATION_API_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
    /** Seconds one API request may take (a generation, or fetching an image it points to). */
    GENERATION_API_TIMEOUT_S: z.coerce.number().positive().max(3600).default(120),
    /** Which generation backend runs when both GENERATION_MODEL_DIR and GENERATION_API_URL are set. */
    GENERATION_BACKEND: z.enum(['onnx', 'api']).optional(),
    /** The tools this worker offers (e.g. `generate` for an API-only worker without a GPU); unset = all it can run. */
    WORKER_TOOLS: envToolList.optional(),
    /** C2PA_*: the certificate AI results are signed with (content-credentials/env.ts). */
    ...contentCredentialsEnv,
  })
  .superRefine((env, issue) => {
    if (env.GENERATION_MODEL_DIR && env.GENERATION_API_URL && !env.GENERATION_BACKEND) {
      issue.addIssue({
        code: 'custom',
        path: ['GENERATION_BACKEND'],
        message: 'is required when both GENERATION_MODEL_DIR and GENERATION_API_URL are set: onnx or api',
      });
    }
    if (env.GENERATION_BACKEND === 'api' && !env.GENERATION_API_URL) {
      issue.addIssue({
        code: 'custom',
        path: ['GENERATION_API_URL'],
        message: 'is required with GENERATION_BACKEND=api',
      });
    }
    if (env.GENERATION_BACKEND === 'onnx' && !env.GENERATION_MODEL_DIR) {
      issue.addIssue({
        code: 'custom',
        path: ['GENERATION_MODEL_DIR'],
        message: 'is required with GENERATION_BACKEND=onnx',
      });
    }
  });

export type WorkerEnv = z.infer<typeof envSchema>;
export type WorkerConfig = Readonly<
  WorkerEnv & { ROOT_DIR: string; WORKER_CPU_THREADS: number; GENERATION_BACKEND: 'onnx' | 'api' }
>;

/** Parses an environment (process.env by default) into the frozen worker configuration. */
export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const value = parseEnv(envSchema, env, 'Invalid worker configuration');
  return Object.freeze({
    ...value,
    GENERATION_BACKEND: value.GENERATION_BACKEND ?? (value.GENERATION_API_URL ? 'api' : 'onnx'),
    WORKER_CPU_THREADS: value.WORKER_CPU_THREADS ?? os.availableParallelism(),
    MODELS_DIR: fromProjectRoot(value.MODELS_DIR),
    GENERATION_MODEL_DIR: value.GENERATION_MODEL_DIR ? fromProjectRoot(value.GENERATION_MODEL_DIR) : undefined,
    ROOT_DIR: projectRoot(),
  });
}

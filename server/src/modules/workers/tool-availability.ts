import {
  HEARTBEAT_KEY_PREFIX,
  JOB_MESSAGES,
  JOB_NAMES,
  heartbeatKey,
  toolContract,
  workerHeartbeatSchema,
  type JobName,
  type ToolStatus,
  type WorkerHeartbeat,
} from '@imagestudio/contracts';
import { AppError, serviceUnavailable, validationError } from '../../lib/errors';
import type { WorkersDeps } from './workers.deps';

/** A positive answer is reused this long, so a burst of submissions costs one Redis scan. */
const CACHE_MS = 1000;
/** The last non-empty heartbeat read of one app, and when it was made. */
export interface HeartbeatCache {
  last: { at: number; beats: WorkerHeartbeat[] } | null;
}

export function createHeartbeatCache(): HeartbeatCache {
  return { last: null };
}

/** Every live worker heartbeat in the queue's Redis (expired ones are gone by their TTL). */
export async function readHeartbeats(ctx: WorkersDeps): Promise<WorkerHeartbeat[]> {
  const patterns = [heartbeatKey(ctx.config.QUEUE_PREFIX, '*')];
  // Workers on the default prefix may write the bare key form of the contract.
  if (ctx.config.QUEUE_PREFIX === 'bull') patterns.push(`${HEARTBEAT_KEY_PREFIX}*`);
  const keys: string[] = [];
  for (const pattern of patterns) {
    for await (const batch of ctx.queueRedis.scanIterator({ MATCH: pattern, COUNT: 1000 })) keys.push(...batch);
  }
  if (keys.length === 0) return [];
  const values = await ctx.queueRedis.mGet(keys);
  const beats: WorkerHeartbeat[] = [];
  for (const value of values) {
    if (!value) continue;
    try {
      const parsed = workerHeartbeatSchema.safeParse(JSON.parse(value));
      if (parsed.success) beats.push(parsed.data);
    } catch {
      // a malformed heartbeat advertises nothing
    }
  }
  return beats;
}

async function liveHeartbeats(ctx: WorkersDeps, fresh = false): Promise<WorkerHeartbeat[]> {
  const cache = ctx.services.heartbeats;
  if (!fresh && cache.last && Date.now() - cache.last.at < CACHE_MS) return cache.last.beats;
  let beats: WorkerHeartbeat[];
  try {
    beats = await readHeartbeats(ctx);
  } catch {
    throw serviceUnavailable(JOB_MESSAGES.queueBusy);
  }
  cache.last = beats.length > 0 ? { at: Date.now(), beats } : null;
  return beats;
}

/** Local providers, fastest first; a hosted images API (`remote:<model>`) ranks after them. */
const PROVIDER_RANK = ['cuda', 'webgpu', 'cpu'];
const rank = (provider: string) =>
  PROVIDER_RANK.includes(provider) ? PROVIDER_RANK.indexOf(provider) : PROVIDER_RANK.length;

/**
 * Per tool: available when some live worker advertises it, with what runs it there. A tool in WORKERS_ON_DEMAND
 * with no live worker is available too (an autoscaler starts one for its queued jobs), with every model its
 * contract knows.
 */
export async function toolStatus(ctx: WorkersDeps, fresh = false): Promise<ToolStatus> {
  const beats = await liveHeartbeats(ctx, fresh);
  const status = {} as ToolStatus;
  for (const tool of JOB_NAMES) {
    const providers = beats.filter((b) => b.tools.includes(tool)).map((b) => b.providers?.[tool] ?? b.provider);
    // The fastest provider any worker offers is what a user's job will most likely run on.
    const provider = providers.sort((a, b) => rank(a) - rank(b))[0] ?? null;
    const offered = new Set(beats.filter((b) => b.tools.includes(tool)).flatMap((b) => b.models[tool] ?? []));
    // Known models in their contract order; a model name only a newer worker knows is listed after them.
    const known: readonly string[] = toolContract(tool).models ?? [];
    const models = [...known.filter((m) => offered.has(m)), ...[...offered].filter((m) => !known.includes(m)).sort()];
    // What the model computes in on a worker with that provider (absent from heartbeats of older workers).
    const precision = beats.find((b) => b.tools.includes(tool) && (b.providers?.[tool] ?? b.provider) === provider)
      ?.precisions?.[tool];
    status[tool] =
      providers.length === 0 && ctx.config.WORKERS_ON_DEMAND?.includes(tool)
        ? { available: true, provider: null, models: [...known], onDemand: true }
        : { available: providers.length > 0, provider, ...(precision ? { precision } : {}), models };
  }
  return status;
}

/**
 * 422 (field `model`, before charging) when live workers run upscaling but none offers `model`. With no
 * upscaling worker at all, assertToolAvailable answers 503 instead.
 */
export async function assertUpscaleModelAvailable(ctx: WorkersDeps, model: string): Promise<void> {
  let status = await toolStatus(ctx);
  if (!status.upscale.models.includes(model)) status = await toolStatus(ctx, true);
  if (status.upscale.available && !status.upscale.models.includes(model))
    throw validationError({ model: [JOB_MESSAGES.modelUnavailable] });
}

/** 503 `tool_unavailable` ("Image generation is not available right now.") when no live worker runs the tool. */
export async function assertToolAvailable(ctx: WorkersDeps, tool: JobName): Promise<void> {
  // Only "available" is answered from the cache: a worker that just started is seen at once.
  let status = await toolStatus(ctx);
  if (!status[tool].available) status = await toolStatus(ctx, true);
  if (!status[tool].available) throw new AppError('tool_unavailable', JOB_MESSAGES.toolUnavailable(tool));
}

import {
  HEARTBEAT_KEY_PREFIX,
  JOB_MESSAGES,
  JOB_NAMES,
  heartbeatKey,
  workerHeartbeatSchema,
  type JobName,
  type ToolStatus,
  type WorkerHeartbeat,
} from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { AppError, serviceUnavailable } from '../../lib/errors';

/** A positive answer is reused this long, so a burst of submissions costs one Redis scan. */
const CACHE_MS = 1000;
const cache = new WeakMap<AppContext, { at: number; beats: WorkerHeartbeat[] }>();

/** Every live worker heartbeat in the queue's Redis (expired ones are gone by their TTL). */
export async function readHeartbeats(ctx: AppContext): Promise<WorkerHeartbeat[]> {
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

async function liveHeartbeats(ctx: AppContext, fresh = false): Promise<WorkerHeartbeat[]> {
  const cached = cache.get(ctx);
  if (!fresh && cached && Date.now() - cached.at < CACHE_MS) return cached.beats;
  let beats: WorkerHeartbeat[];
  try {
    beats = await readHeartbeats(ctx);
  } catch {
    throw serviceUnavailable(JOB_MESSAGES.queueBusy);
  }
  if (beats.length > 0) cache.set(ctx, { at: Date.now(), beats });
  else cache.delete(ctx);
  return beats;
}

/** Per tool: available when some live worker advertises it, with the provider it runs on. */
export async function toolStatus(ctx: AppContext, fresh = false): Promise<ToolStatus> {
  const beats = await liveHeartbeats(ctx, fresh);
  const status = {} as ToolStatus;
  for (const tool of JOB_NAMES) {
    const able = beats.filter((b) => b.tools.includes(tool));
    // The fastest provider any worker offers is what a user's job will most likely run on.
    const provider = ['cuda', 'webgpu', 'cpu'].find((p) => able.some((b) => b.provider === p)) ?? null;
    status[tool] = { available: able.length > 0, provider };
  }
  return status;
}

/** 503 `tool_unavailable` ("Image generation is not available right now.") when no live worker runs the tool. */
export async function assertToolAvailable(ctx: AppContext, tool: JobName): Promise<void> {
  // Only "available" is answered from the cache: a worker that just started is seen at once.
  let status = await toolStatus(ctx);
  if (!status[tool].available) status = await toolStatus(ctx, true);
  if (!status[tool].available) throw new AppError('tool_unavailable', JOB_MESSAGES.toolUnavailable(tool));
}

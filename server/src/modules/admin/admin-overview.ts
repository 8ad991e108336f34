import {
  HEARTBEAT_TTL_SECONDS,
  JOB_NAMES,
  JOB_STATUSES,
  fromMinorUnits,
  tenthsToTokens,
  type AdminOverview,
  type AdminQueueView,
  type AdminWorkerView,
  type JobName,
  type JobStatus,
  type WorkerHeartbeat,
} from '@imagestudio/contracts';
import type { AdminDeps } from './admin.deps';
import { serviceUnavailable } from '../../lib/errors';
import { readHeartbeats } from '../workers';
import * as repo from './admin.repository';

/** Workers refresh their heartbeat every third of its TTL; three missed ones make a worker lost. */
const HEARTBEAT_INTERVAL_MS = (HEARTBEAT_TTL_SECONDS * 1000) / 3;
const LOST_AFTER_MS = 3 * HEARTBEAT_INTERVAL_MS;
/** A lost worker stays on the overview this long, then is forgotten. */
const FORGET_AFTER_MS = 3600 * 1000;
/** The reason the worker fails a job with when its cancel flag is set (worker/src/queue/errors.ts). */
const CANCELLED_REASON = 'cancelled';
/** At most this many delayed or failed jobs are read from the queue per state to count them per tool. */
const QUEUE_SCAN_LIMIT = 1000;

/**
 * Live heartbeats expire with their key 15 s after a worker stops, so the console keeps the last one of each
 * worker it has seen in a hash of its own (in the queue's Redis, next to the heartbeats): a worker whose last
 * beat is older than three intervals is shown as lost for an hour instead of silently vanishing.
 */
async function workers(ctx: AdminDeps, now: number): Promise<AdminWorkerView[]> {
  const key = `${ctx.config.QUEUE_PREFIX}:admin:workers-seen`;
  const live = await readHeartbeats(ctx);
  if (live.length > 0)
    await ctx.queueRedis.hSet(key, Object.fromEntries(live.map((b) => [b.workerId, JSON.stringify(b)])));
  const seen = await ctx.queueRedis.hGetAll(key);
  const views: AdminWorkerView[] = [];
  const forget: string[] = [];
  for (const [id, text] of Object.entries(seen)) {
    let beat: WorkerHeartbeat;
    try {
      beat = JSON.parse(text) as WorkerHeartbeat;
    } catch {
      forget.push(id);
      continue;
    }
    const at = Date.parse(beat.at);
    if (!Number.isFinite(at) || now - at > FORGET_AFTER_MS) {
      forget.push(id);
      continue;
    }
    views.push({
      id,
      host: id.split(':')[0] ?? id,
      tools: beat.tools,
      provider: beat.provider,
      providers: beat.providers ?? {},
      concurrency: beat.concurrency,
      version: beat.version,
      // Absent from the beats of older workers: the console shows a dash.
      current_jobs: beat.currentJobs ?? null,
      jobs_done: beat.jobsDone ?? null,
      last_seen: new Date(at).toISOString(),
      state: now - at >= LOST_AFTER_MS ? 'lost' : 'live',
    });
  }
  if (forget.length > 0) await ctx.queueRedis.hDel(key, forget);
  return views.sort((a, b) => a.state.localeCompare(b.state) || a.id.localeCompare(b.id));
}

/**
 * Per tool: waiting and running jobs and the oldest waiting one from Postgres (the truth about every job), and
 * the jobs BullMQ holds delayed (waiting for a retry), failed or cancelled, counted from the queue itself.
 */
async function queues(ctx: AdminDeps, now: number): Promise<AdminQueueView[]> {
  const [open, delayed, failed] = await Promise.all([
    repo.openJobsPerTool(ctx.db),
    ctx.queue.getJobs(['delayed'], 0, QUEUE_SCAN_LIMIT - 1),
    ctx.queue.getJobs(['failed'], 0, QUEUE_SCAN_LIMIT - 1),
  ]);
  const count = (jobs: Array<{ name: string } | undefined>, tool: JobName) =>
    jobs.filter((j) => j?.name === tool).length;
  // A cancelled job ends in BullMQ's failed set too (the worker fails it with the reason "cancelled"): it is
  // counted apart, as the operator did not see anything go wrong.
  const cancelled = failed.filter((j) => j?.failedReason === CANCELLED_REASON);
  const broken = failed.filter((j) => j?.failedReason !== CANCELLED_REASON);
  return JOB_NAMES.map((tool) => {
    const queued = open.find((r) => r.tool === tool && r.status === 'queued');
    const running = open.find((r) => r.tool === tool && r.status === 'running');
    return {
      tool,
      waiting: Number(queued?.count ?? 0),
      active: Number(running?.count ?? 0),
      delayed: count(delayed, tool),
      failed: count(broken, tool),
      cancelled: count(cancelled, tool),
      oldest_waiting_s: queued ? Math.max(0, Math.round((now - new Date(queued.oldest).getTime()) / 1000)) : null,
    };
  });
}

async function jobsPerHour(ctx: AdminDeps, now: number): Promise<AdminOverview['jobs_per_hour']> {
  const rows = await repo.jobsPerHour(ctx.db);
  const hour = 3600 * 1000;
  const first = Math.floor(now / hour) * hour - 23 * hour;
  return Array.from({ length: 24 }, (_, i) => {
    const start = first + i * hour;
    const bucket = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<JobStatus, number>;
    for (const r of rows) if (new Date(r.hour).getTime() === start) bucket[r.status] += Number(r.count);
    return { hour: new Date(start).toISOString(), ...bucket };
  });
}

async function depositsPerDay(ctx: AdminDeps, now: number): Promise<AdminOverview['deposits_per_day']> {
  const rows = await repo.depositsPerDay(ctx.db);
  const day = 24 * 3600 * 1000;
  const first = Math.floor(now / day) * day - 29 * day;
  return Array.from({ length: 30 }, (_, i) => {
    const date = new Date(first + i * day).toISOString().slice(0, 10);
    const today = rows.filter((r) => r.day === date);
    const amounts: Record<string, number> = {};
    for (const r of today) amounts[r.currency] = fromMinorUnits(Number(r.minor), r.currency);
    return {
      day: date,
      count: today.reduce((n, r) => n + Number(r.count), 0),
      tokens: tenthsToTokens(today.reduce((n, r) => n + Number(r.tenths), 0)),
      amounts,
    };
  });
}

/** GET /api/admin/overview; a 503 while the queue's Redis does not answer (Postgres errors stay 500s). */
export async function overview(ctx: AdminDeps): Promise<AdminOverview> {
  const now = Date.now();
  const queueDown = () => {
    throw serviceUnavailable('The queue is not reachable right now.');
  };
  const [q, w, perHour, perDay] = await Promise.all([
    queues(ctx, now).catch(queueDown),
    workers(ctx, now).catch(queueDown),
    jobsPerHour(ctx, now),
    depositsPerDay(ctx, now),
  ]);
  return {
    queues: q,
    workers: w,
    jobs_per_hour: perHour,
    deposits_per_day: perDay,
    generated_at: new Date(now).toISOString(),
  };
}

import { Router, type RequestHandler } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { AppContext } from '../../context';
import { forbidden } from '../../lib/errors';
import { audit } from './admin-audit';
import { localBoardViews } from './queue-board-page';

/** Where the BullMQ board is served (a page of its own, outside /api and the client's routes). */
export const QUEUE_BOARD_PATH = '/admin/queues';

/** What an operator is told when they try a board action that is turned off here. */
export const QUEUE_BOARD_REFUSED =
  'This action is turned off on the queue board: retry, promote, clean, pause and resume only.';

/** How long one operator's view of the same jobs is recorded once (the board reloads its page every few seconds). */
const VIEW_AUDIT_WINDOW_MS = 10 * 60_000;

interface BoardChange {
  action: string;
  target: string | null;
  details: Record<string, unknown>;
  /** A job state whose size before the change is recorded (bulk actions). */
  countState?: string;
}

/**
 * The board's changes an operator needs, each with its audit action: a job retried, promoted or removed, the same
 * for every job of a state, and the queue paused or resumed. Everything else (adding a job, editing a job's data,
 * its delay or priority, emptying or obliterating the queue, concurrency, rate limits, schedulers) is turned off:
 * a job's data is what the worker trusts (the customer's id, their input's key), and a job the API did not create
 * has no row, charge or owner.
 */
function boardChange(method: string, path: string): BoardChange | null {
  if (method !== 'PUT') return null;
  const decode = (part: string) => decodeURIComponent(part);
  let m = /^\/api\/queues\/(pause|resume)$/.exec(path);
  if (m) return { action: `queues.${m[1]}-all`, target: null, details: {} };
  m = /^\/api\/queues\/([^/]+)\/(retry|clean)\/([a-z-]+)$/.exec(path);
  if (m) {
    const queue = decode(m[1]!);
    return { action: `queues.${m[2]}-all`, target: `queue:${queue}`, details: { status: m[3] }, countState: m[3] };
  }
  m = /^\/api\/queues\/([^/]+)\/(promote|pause|resume)$/.exec(path);
  if (m) {
    const queue = decode(m[1]!);
    if (m[2] === 'promote')
      return { action: 'queues.promote-all', target: `queue:${queue}`, details: {}, countState: 'delayed' };
    return { action: `queues.${m[2]}`, target: `queue:${queue}`, details: {} };
  }
  m = /^\/api\/queues\/([^/]+)\/([^/]+)\/(retry|promote|clean)$/.exec(path);
  if (m) return { action: `queues.job.${m[3]}`, target: `job:${decode(m[2]!)}`, details: { queue: decode(m[1]!) } };
  return null;
}

/** The board's reads that are not of jobs (their second segment names a queue's settings, not a job id). */
const QUEUE_READS = new Set(['metrics', 'default-job-options', 'workers', 'rate-limit', 'job-data-schema']);

/** The user ids in jobs' data (the API's payloads carry `userId`), each once. */
function usersOf(jobs: Array<{ data?: unknown }>): string[] {
  const ids = jobs.map((j) => (j.data as { userId?: unknown } | null)?.userId).filter((id) => typeof id === 'string');
  return [...new Set(ids as string[])];
}

/** A board read that shows customers' job data, as the audit row it deserves; null for counts and settings. */
function boardRead(path: string, query: Record<string, unknown>, body: unknown) {
  const reply = (body ?? {}) as {
    queues?: Array<{ name?: string; jobs?: Array<{ id?: unknown; data?: unknown }> }>;
    job?: { id?: unknown; data?: unknown };
  };
  if (path === '/api/queues') {
    const jobs = (reply.queues ?? []).flatMap((q) => q.jobs ?? []);
    if (jobs.length === 0) return null;
    const queue = String(query.activeQueue ?? '');
    const ids = jobs.map((j) => String(j.id));
    return {
      action: 'queues.list',
      target: `queue:${queue}`,
      details: { status: query.status ?? 'latest', page: query.page ?? '1', jobs: ids, users: usersOf(jobs) },
      key: `list:${queue}:${ids.join(',')}`,
    };
  }
  const m = /^\/api\/queues\/([^/]+)\/([^/]+)(\/logs|\/flow)?$/.exec(path);
  if (!m || QUEUE_READS.has(m[2]!)) return null;
  const job = decodeURIComponent(m[2]!);
  const part = m[3] ? m[3].slice(1) : 'job';
  return {
    action: 'queues.job.view',
    target: `job:${job}`,
    details: {
      queue: decodeURIComponent(m[1]!),
      part,
      ...(reply.job ? { user_id: usersOf([reply.job])[0] ?? null } : {}),
    },
    key: `job:${job}:${part}`,
  };
}

/**
 * Refuses the board's changes that are turned off (403, before the board sees them) and audits the rest once they
 * have succeeded, each under its own name with its queue or job and, for bulk actions, how many jobs the state held
 * before (and how many were retried). Reads of customers' job data (a list page with its jobs, one job, its logs) are
 * audited too, once per operator and set of jobs in VIEW_AUDIT_WINDOW_MS, since the board reloads them every few
 * seconds.
 */
function guardAndAudit(ctx: AppContext): RequestHandler {
  const seen = new Map<string, number>();
  const firstView = (key: string) => {
    const now = Date.now();
    if ((seen.get(key) ?? 0) > now) return false;
    if (seen.size > 10_000) for (const [k, until] of seen) if (until <= now) seen.delete(k);
    seen.set(key, now + VIEW_AUDIT_WINDOW_MS);
    return true;
  };
  const write = (req: Parameters<RequestHandler>[0], action: string, target: string | null, details: object) =>
    audit(ctx, req, action, target, details as Record<string, unknown>).catch((err: Error) =>
      ctx.logger.error({ err: err.message, action }, 'queue board audit failed'),
    );
  return async (req, res, next) => {
    const path = req.path;
    const reading = req.method === 'GET' || req.method === 'HEAD';
    const change = reading ? null : boardChange(req.method, path);
    if (!reading && !change) {
      req.log?.warn({ method: req.method, path, operator: req.user?.email }, 'queue board action refused');
      return next(forbidden(QUEUE_BOARD_REFUSED));
    }
    let body: unknown;
    const json = res.json.bind(res);
    res.json = (reply: unknown) => {
      body = reply;
      return json(reply);
    };
    let before: number | undefined;
    if (change?.countState) {
      try {
        before = await ctx.queue.getJobCountByTypes(change.countState as 'failed');
      } catch (err) {
        return next(err);
      }
    }
    res.on('finish', () => {
      if (res.statusCode >= 400) return;
      if (change) {
        const result = (body ?? {}) as { retried?: unknown; skipped?: unknown };
        const counts = {
          ...(before !== undefined && { jobs_before: before }),
          ...(typeof result.retried === 'number' && { retried: result.retried, skipped: result.skipped }),
        };
        return void write(req, change.action, change.target, { ...change.details, ...counts });
      }
      const read = boardRead(path, req.query, body);
      if (read && firstView(`${req.user!.id}|${read.key}`)) void write(req, read.action, read.target, read.details);
    });
    next();
  };
}

/**
 * Admins only; anyone else (guests, customers) gets exactly what an unknown page gets (the client's own Not
 * Found), so the board is not advertised. API keys only work under /api, so they never reach it.
 */
const adminsOnly: RequestHandler = (req, _res, next) =>
  next(req.user?.role === 'admin' && !req.apiKeyId ? undefined : 'router');

/**
 * The BullMQ board (@bull-board) on the API's queue, for a browser session of an admin. Its changes pass the
 * app's XSRF check (its client sends the XSRF-TOKEN cookie back as X-XSRF-TOKEN), only those an operator needs are
 * let through, and they and the reads of customers' job data are audited (guardAndAudit).
 */
export function queueBoardRouter(ctx: AppContext): Router {
  const adapter = new ExpressAdapter();
  adapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    // The board cannot hide single buttons, so the queue's description says what works; the rest answers 403.
    queues: [new BullMQAdapter(ctx.queue, { description: 'Retry, promote, clean, pause and resume only.' })],
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'Image Studio queues' } },
  });
  // After createBullBoard, which points the views at the package's own page: this one loads nothing from outside.
  adapter.setViewsPath(localBoardViews());
  const router = Router();
  router.use(QUEUE_BOARD_PATH, adminsOnly, guardAndAudit(ctx), adapter.getRouter() as RequestHandler);
  return router;
}

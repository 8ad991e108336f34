import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { JobView } from '@imagestudio/contracts';
import { freePort, TEST_QUEUE_REDIS_DB, TEST_REDIS_URL } from '@imagestudio/runtime/testing';
import { connectDb } from '../lib/db';
import { applyEntryNow } from '../modules/ledger';
import { usersRepository as users } from '../modules/users';
import { readHeartbeats } from '../modules/workers';
import { createUser, isolatedTestDatabase } from './auth-helpers';
import { createTestContext, type TestContext } from './harness';
import { startApiProcess, startWorkerProcess, type ApiProcess, type ChildService } from './processes';

/**
 * A scaled-out deployment on loopback, for the tests and the benchmarks that need several real API and worker
 * processes: a fresh database of its own (`<test database>_<tag>`, migrated and seeded, dropped by close()), one
 * Redis (its own queue and rate-limit prefixes, one session secret for every API), one embedded S3 server held by
 * an in-process app context (which also creates the accounts and reads rows), API processes (`server/src/main.ts`)
 * and real workers (`worker/src/main.ts`) that remove backgrounds with the prepared model, one thread each.
 */

interface ClusterOptions {
  /** Names the database and the Redis prefixes: lower-case letters, digits and `_`. */
  tag: string;
  apis: number;
  workers: number;
  /** Settings added to every API process (limits, intervals). */
  apiEnv?: Record<string, string>;
  /** Settings added to every worker process. */
  workerEnv?: Record<string, string>;
}

/** A signed-in account: its cookies work on every API of the cluster. */
export interface Customer {
  userId: string;
  email: string;
  cookie: string;
  xsrf: string;
}

type FinalJob = Pick<JobView, 'id' | 'status'> & { createdAt: Date; startedAt: Date | null; finishedAt: Date };

const FINAL = ['succeeded', 'failed', 'cancelled'];

export async function until<T>(
  what: string,
  read: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs: number,
  context: () => string = () => '',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${context()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The cookies of a response's Set-Cookie lines, merged over `held`. */
function mergeCookies(held: Map<string, string>, res: Response): Map<string, string> {
  for (const line of res.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const eq = pair.indexOf('=');
    if (eq > 0) held.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return held;
}

export class Cluster {
  readonly apis: ApiProcess[] = [];
  readonly workers: ChildService[] = [];
  private serial = 0;

  private constructor(
    readonly t: TestContext,
    readonly databaseUrl: string,
    private readonly services: Record<string, string>,
    private readonly options: ClusterOptions,
    private readonly tmpDir: string,
  ) {}

  /** Starts everything and waits until every API is ready and every worker's heartbeat is in Redis. */
  static async start(options: ClusterOptions): Promise<Cluster> {
    const run = randomUUID().slice(0, 8);
    const databaseUrl = await isolatedTestDatabase(options.tag, { fresh: true });
    const s3Port = await freePort();
    const shared = {
      QUEUE_PREFIX: `${options.tag}-${run}`,
      RATE_LIMIT_PREFIX: `rl-${options.tag}-${run}`,
      SESSION_SECRET: `cluster-secret-${options.tag}-${run}`,
    };
    const t = await createTestContext({ ...shared, DATABASE_URL: databaseUrl, S3_LOCAL_PORT: String(s3Port) });
    const services = {
      ...shared,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_REDIS_DB: String(TEST_QUEUE_REDIS_DB),
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    };
    const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), `imagestudio-${options.tag}-`));
    const cluster = new Cluster(t, databaseUrl, services, options, tmpDir);
    try {
      for (let i = 0; i < options.workers; i += 1) cluster.startWorker();
      const started = await Promise.allSettled(Array.from({ length: options.apis }, () => cluster.startApi()));
      const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      await cluster.waitForWorkers(options.workers);
    } catch (err) {
      await cluster.close();
      throw err;
    }
    return cluster;
  }

  /** The last lines every process printed, for failure messages. */
  logs = (): string => [...this.apis, ...this.workers].map((p) => p.tail()).join('\n');

  /** Starts one more API process (added to `apis`) and waits until it is ready. */
  async startApi(): Promise<ApiProcess> {
    const name = `api-${(this.serial += 1)}`;
    const api = await startApiProcess(
      name,
      {
        ...this.services,
        DATABASE_URL: this.databaseUrl,
        SMTP_URL: '',
        MAIL_OUTBOX_FILE: path.join(this.tmpDir, `${name}.jsonl`),
        JOB_SUBMIT_RATE_PER_MINUTE: '100000',
        UPLOAD_MAX_PER_USER: '16',
        ...this.options.apiEnv,
      },
      180_000,
    );
    this.apis.push(api);
    return api;
  }

  /** Stops API `index` with SIGTERM and starts a fresh one (on another port) in its place. */
  async restartApi(index: number): Promise<ApiProcess> {
    const old = this.apis[index]!;
    await old.stop();
    const fresh = await this.startApi();
    this.apis.splice(this.apis.indexOf(fresh), 1);
    this.apis[index] = fresh;
    return fresh;
  }

  /** Starts one more worker (added to `workers`); it takes jobs once its heartbeat is written. */
  startWorker(): ChildService {
    const worker = startWorkerProcess(`worker-${(this.serial += 1)}`, {
      ...this.services,
      WORKER_TOOLS: 'remove-background',
      WORKER_CONCURRENCY: '1',
      WORKER_CPU_THREADS: '1',
      ...this.options.workerEnv,
    });
    this.workers.push(worker);
    return worker;
  }

  /** Waits until `count` running workers have a heartbeat in Redis. */
  async waitForWorkers(count: number, timeoutMs = 180_000): Promise<void> {
    await until(
      `${count} worker heartbeats`,
      async () => {
        if (this.workers.filter((w) => w.running).length < count) {
          throw new Error(`fewer than ${count} workers are running\n${this.logs()}`);
        }
        const pids = new Set((await readHeartbeats(this.t.ctx)).map((h) => this.pidOfWorkerId(h.workerId)));
        return this.workers.filter((w) => w.running && pids.has(w.child.pid!)).length >= count;
      },
      timeoutMs,
      this.logs,
    );
  }

  /** BullMQ's name of a worker (`host:pid:random`) -> its process id. */
  pidOfWorkerId(workerId: string): number {
    return Number(workerId.split(':').at(-2));
  }

  /** The worker process that took a job (BullMQ's processedBy), or undefined while none has. */
  async workerOfJob(jobId: string): Promise<ChildService | undefined> {
    const job = await this.t.ctx.queue.getJob(jobId);
    if (!job?.processedBy) return undefined;
    const pid = this.pidOfWorkerId(job.processedBy);
    return this.workers.find((w) => w.child.pid === pid);
  }

  /** The job ids BullMQ holds as active now, with the worker process running each. */
  async activeJobs(): Promise<Array<{ id: string; worker: ChildService | undefined }>> {
    const jobs = await this.t.ctx.queue.getActive();
    return jobs.map((job) => ({
      id: String(job.id),
      worker: this.workers.find((w) => job.processedBy && w.child.pid === this.pidOfWorkerId(job.processedBy)),
    }));
  }

  /** Polls one job's BullMQ state every 250 ms and keeps each change with its time; stop() ends it. */
  watchJob(jobId: string): { changes: Array<{ at: number; state: string; by?: string }>; stop: () => void } {
    const changes: Array<{ at: number; state: string; by?: string }> = [];
    let stopped = false;
    const poll = async () => {
      while (!stopped) {
        const job = await this.t.ctx.queue.getJob(jobId);
        const state = job ? await job.getState() : 'missing';
        const by = job?.processedBy
          ? this.workers.find((w) => w.child.pid === this.pidOfWorkerId(job.processedBy!))?.name
          : undefined;
        const last = changes.at(-1);
        if (!last || last.state !== state || last.by !== by) changes.push({ at: Date.now(), state, by });
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    void poll();
    return { changes, stop: () => void (stopped = true) };
  }

  /** A verified account holding `tokens`, signed in through `api` (the first by default). */
  async customer(tokens: number, api: ApiProcess = this.apis[0]!): Promise<Customer> {
    const { user, email, password } = await createUser(this.t);
    await users.markEmailVerified(this.t.ctx.db, user.id);
    const delta = tokens * 10 - Number(user.balance_tenths);
    if (delta !== 0)
      await applyEntryNow(this.t.ctx.db, {
        userId: user.id,
        deltaTenths: delta,
        kind: 'adjustment',
        idempotencyKey: `cluster:${user.id}`,
        reason: 'test setup',
      });
    const jar = mergeCookies(new Map(), await fetch(`${api.baseUrl}/api/csrf`));
    const xsrf = () => decodeURIComponent(jar.get('XSRF-TOKEN') ?? '');
    const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const login = await fetch(`${api.baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-XSRF-TOKEN': xsrf(), Cookie: cookie() },
      body: JSON.stringify({ username: email, password }),
    });
    if (login.status !== 200) throw new Error(`login answered ${login.status}: ${await login.text()}`);
    mergeCookies(jar, login);
    return { userId: user.id, email, cookie: cookie(), xsrf: xsrf() };
  }

  /** POST /api/tools/remove-background with a PNG through `api`; returns the job's id (202 expected). */
  async removeBackground(api: ApiProcess, customer: Customer, png: Buffer, name = 'photo.png'): Promise<string> {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), name);
    const res = await fetch(`${api.baseUrl}/api/tools/remove-background`, {
      method: 'POST',
      headers: { Cookie: customer.cookie, 'X-XSRF-TOKEN': customer.xsrf },
      body: form,
    });
    if (res.status !== 202)
      throw new Error(`remove-background via ${api.name} answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { payload: { id: string } }).payload.id;
  }

  /** Waits until every job's row is final (succeeded, failed or cancelled) and returns the rows. */
  async waitForJobs(ids: string[], timeoutMs: number): Promise<FinalJob[]> {
    return until(
      `${ids.length} jobs to end`,
      async () => {
        const rows = (await this.t.ctx
          .db('image_jobs')
          .whereIn('id', ids)
          .select('id', 'status', 'created_at', 'started_at', 'finished_at')) as Array<{
          id: string;
          status: JobView['status'];
          created_at: Date;
          started_at: Date | null;
          finished_at: Date | null;
        }>;
        if (rows.length !== ids.length || rows.some((r) => !FINAL.includes(r.status))) return undefined;
        return rows.map((r) => ({
          id: r.id,
          status: r.status,
          createdAt: r.created_at,
          startedAt: r.started_at,
          finishedAt: r.finished_at!,
        }));
      },
      timeoutMs,
      this.logs,
    );
  }

  /** Every ledger row of these jobs (`job:<id>:charge`, `job:<id>:refund`), as id -> the kinds of key. */
  async ledgerOfJobs(ids: string[]): Promise<Map<string, string[]>> {
    const rows = (await this.t.ctx
      .db('token_ledger')
      .whereIn(
        'idempotency_key',
        ids.flatMap((id) => [`job:${id}:charge`, `job:${id}:refund`]),
      )
      .select('idempotency_key')) as Array<{ idempotency_key: string }>;
    const byJob = new Map<string, string[]>(ids.map((id) => [id, []]));
    for (const { idempotency_key: key } of rows) {
      const [, id, kind] = key.split(':');
      byJob.get(id!)!.push(kind!);
    }
    for (const kinds of byJob.values()) kinds.sort();
    return byJob;
  }

  /** Stops every process, the S3 server and the app context, and drops the database. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.stop()));
    await Promise.all(this.apis.map((a) => a.stop()));
    await this.t.close();
    fs.rmSync(this.tmpDir, { recursive: true, force: true });
    const name = decodeURIComponent(new URL(this.databaseUrl).pathname.slice(1));
    const admin = new URL(this.databaseUrl);
    admin.pathname = '/postgres';
    const db = await connectDb(admin.toString(), { min: 0, max: 1 });
    try {
      await db.raw(`drop database if exists "${name}" with (force)`);
    } finally {
      await db.destroy();
    }
  }
}

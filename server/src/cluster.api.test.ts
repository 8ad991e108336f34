/**
 * Many processes on one machine: two API processes and two real background-removal workers on one Postgres
 * database (of its own), one Redis and one S3 server (test/cluster.ts). Forty jobs of four customers each run
 * once and are charged once, on both workers; a worker stopped with SIGTERM while it runs a job finishes it; one
 * killed with SIGKILL loses no job (BullMQ's stalled-job check hands it to the other worker once its lock expires:
 * 30 s lock, 30 s check, the defaults); an API restarted during 200 requests costs no request that a client
 * retrying on the other API does not get answered, and a session made on one API is good on the other.
 */
import path from 'node:path';
import sharp from 'sharp';
import { Cluster, until, type Customer } from './test/cluster';
import { readHeartbeats } from './modules/workers';
import type { ApiProcess } from './test/processes';

const FIXTURE = path.resolve(__dirname, '..', '..', 'worker', 'src', 'test-support', 'fixtures', 'coffee.png');
/** BullMQ's default lock (30 s) plus its stalled-job check interval (30 s), and a margin for a busy machine. */
const STALL_RECOVERY_MS = 100_000;
/** What a client may retry on another API: a refused or reset connection, or 503 from an API stopping. */
const RETRIABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET', '503']);

let cluster: Cluster;
let png: Buffer;

beforeAll(async () => {
  png = await sharp(FIXTURE).resize(64, 64).png().toBuffer();
  cluster = await Cluster.start({ tag: 'cluster', apis: 2, workers: 2 });
}, 240_000);

afterAll(async () => {
  await cluster?.close();
}, 60_000);

/** Submits `perCustomer` jobs for each customer, spread over both APIs; the customers submit side by side. */
async function submitJobs(customers: Customer[], perCustomer: number): Promise<string[]> {
  const ids = await Promise.all(
    customers.map(async (customer, c) => {
      const mine: string[] = [];
      for (let j = 0; j < perCustomer; j += 1) {
        mine.push(await cluster.removeBackground(cluster.apis[(c + j) % 2]!, customer, png, `c${c}-${j}.png`));
      }
      return mine;
    }),
  );
  return ids.flat();
}

/** Waits until some worker runs one of `ids`; returns that job and the worker. */
async function jobRunning(ids: string[]) {
  return until(
    'a worker to run one of the jobs',
    async () => (await cluster.activeJobs()).find((a) => ids.includes(a.id) && a.worker?.running),
    60_000,
    cluster.logs,
  );
}

describe('two APIs and two background-removal workers', () => {
  it('runs 40 jobs of 4 customers once each, charged once, on both workers', async () => {
    const customers = await Promise.all([0, 1, 2, 3].map((i) => cluster.customer(100, cluster.apis[i % 2])));
    const ids = await submitJobs(customers, 10);
    const rows = await cluster.waitForJobs(ids, 200_000);
    expect(rows.filter((r) => r.status !== 'succeeded')).toEqual([]);
    const ledger = await cluster.ledgerOfJobs(ids);
    expect([...ledger.values()].filter((kinds) => kinds.join() !== 'charge')).toEqual([]);

    const ranBy = new Map<string, number>();
    for (const id of ids) {
      const worker = await cluster.workerOfJob(id);
      expect(worker).toBeDefined();
      ranBy.set(worker!.name, (ranBy.get(worker!.name) ?? 0) + 1);
      const job = (await cluster.t.ctx.queue.getJob(id))!;
      expect({ id, attemptsMade: job.attemptsMade, stalled: job.stalledCounter }).toEqual({
        id,
        attemptsMade: 1,
        stalled: 0,
      });
    }
    expect([...ranBy.keys()].sort()).toEqual(cluster.workers.map((w) => w.name).sort());
    // The workers' own count (their heartbeats, written every 5 s): 40 jobs done in all, none twice.
    const done = await until(
      'the heartbeats to count 40 jobs',
      async () => {
        const total = (await readHeartbeats(cluster.t.ctx)).reduce((sum, h) => sum + (h.jobsDone ?? 0), 0);
        return total >= 40 ? total : undefined;
      },
      20_000,
    );
    expect(done).toBe(40);
    for (const customer of customers) {
      const { balance_tenths } = await cluster.t.ctx.db('users').where({ id: customer.userId }).first('balance_tenths');
      const { sum } = (await cluster.t.ctx
        .db('token_ledger')
        .where({ user_id: customer.userId })
        .sum('delta_tenths as sum')
        .first()) as { sum: string };
      expect(Number(balance_tenths)).toBe(Number(sum));
    }
  }, 260_000);

  it('finishes the job of a worker stopped with SIGTERM, charged once', async () => {
    const customer = await cluster.customer(100);
    const ids = await submitJobs([customer], 4);
    const victim = await jobRunning(ids);
    victim.worker!.child.kill('SIGTERM');
    cluster.startWorker();
    await victim.worker!.exited;
    // It finished its job within the grace period and exited 0 (1 when it gave up waiting).
    expect(victim.worker!.child.exitCode).toBe(0);
    const rows = await cluster.waitForJobs(ids, 120_000);
    expect(rows.filter((r) => r.status !== 'succeeded')).toEqual([]);
    expect((await cluster.workerOfJob(victim.id))?.name).toBe(victim.worker!.name);
    const ledger = await cluster.ledgerOfJobs(ids);
    expect([...ledger.values()].filter((kinds) => kinds.join() !== 'charge')).toEqual([]);
    await cluster.waitForWorkers(2);
  }, 240_000);

  it('loses no job of a worker killed with SIGKILL: the other worker runs it once its lock expires', async () => {
    const customer = await cluster.customer(100);
    const ids = await submitJobs([customer], 3);
    const victim = await jobRunning(ids);
    const watch = cluster.watchJob(victim.id);
    victim.worker!.child.kill('SIGKILL');
    const killedAt = Date.now();
    const rows = await cluster.waitForJobs(ids, STALL_RECOVERY_MS).finally(watch.stop);
    const recovered = rows.find((r) => r.id === victim.id)!;
    const ledger = await cluster.ledgerOfJobs(ids);
    // Either the other worker ran it (charged once) or it was failed and refunded (charge and refund).
    if (recovered.status === 'succeeded') {
      expect(ledger.get(victim.id)).toEqual(['charge']);
      expect((await cluster.workerOfJob(victim.id))?.name).not.toBe(victim.worker!.name);
      // Handed back once by the stalled-job check, not failed and retried.
      expect((await cluster.t.ctx.queue.getJob(victim.id))!.stalledCounter).toBe(1);
    } else {
      expect(ledger.get(victim.id)).toEqual(['charge', 'refund']);
    }
    for (const row of rows.filter((r) => r.id !== victim.id)) {
      expect({ id: row.id, status: row.status, ledger: ledger.get(row.id) }).toEqual({
        id: row.id,
        status: 'succeeded',
        ledger: ['charge'],
      });
    }
    const timeline = watch.changes.map((c) => `${((c.at - killedAt) / 1000).toFixed(1)} s ${c.state} ${c.by ?? ''}`);
    console.log(
      `job of the worker killed at 0 s (${victim.worker!.name}): ${timeline.join('; ')}; row ${recovered.status}`,
    );
  }, 150_000);

  it('answers 200 requests over both APIs while one restarts; a session made on one API is good on the other', async () => {
    const customer = await cluster.customer(10, cluster.apis[0]);
    const profile = (api: ApiProcess) =>
      fetch(`${api.baseUrl}/api/user/profile`, { headers: { Cookie: customer.cookie } });
    const other = await profile(cluster.apis[1]!);
    expect(other.status).toBe(200);
    expect(((await other.json()) as { payload: { email: string } }).payload.email).toBe(customer.email);

    // A client that sends each request to the next API in turn and, when that one refuses the connection,
    // resets it or answers 503, tries the other one.
    const firstTries: string[] = [];
    const servedBy: string[] = [];
    let turn = 0;
    const request = async (): Promise<number> => {
      for (let attempt = 0; attempt < 6; attempt += 1) {
        const api = cluster.apis[(turn += 1) % cluster.apis.length]!;
        let outcome: string;
        try {
          const res = await profile(api);
          const body = (await res.json()) as { payload?: { email: string } };
          if (res.status === 200 && body.payload?.email === customer.email) {
            servedBy.push(api.name);
            return res.status;
          }
          outcome = String(res.status);
        } catch (err) {
          const cause = (err as { cause?: { code?: string } }).cause;
          outcome = cause?.code ?? (err as Error).message;
        }
        firstTries.push(outcome);
        if (!RETRIABLE.has(outcome)) return Number(outcome) || 0;
      }
      return 0;
    };
    const before = cluster.apis[1]!.name;
    let restarted: Promise<ApiProcess> | undefined;
    const statuses: number[] = [];
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < 200; i += 1) {
      if (i === 20) restarted = cluster.restartApi(1);
      // The last 50 wait for the restarted API, so some of them reach it.
      if (i === 150) await restarted;
      inFlight.push(request().then((status) => void statuses.push(status)));
      await new Promise((r) => setTimeout(r, 50));
    }
    await Promise.all(inFlight);
    const after = (await restarted!).name;
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(firstTries.filter((t) => !RETRIABLE.has(t))).toEqual([]);
    expect(servedBy.filter((name) => name === before).length).toBeGreaterThan(0);
    expect(servedBy.filter((name) => name === after).length).toBeGreaterThan(0);
    console.log(
      `200 requests: ${servedBy.length} answered; tries refused or failed first: ${firstTries.length} (${[...new Set(firstTries)].join(', ')})`,
    );
  }, 180_000);
});

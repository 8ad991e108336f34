/**
 * Scale: the cost curve of a scaled-out deployment on this machine, from the processes of
 * server/src/test/cluster.ts (two API processes and real background-removal workers on loopback, one Postgres
 * database of its own, one Redis, one embedded S3). Each worker runs one job at a time on one inference thread.
 * - jobs per minute with 1 worker, then 2: SCALE_JOBS (20) background removals of the fixture photos submitted at
 *   once by 4 customers through both APIs, from the first row created to the last finished;
 * - API latency of a signed-in profile read (GET /api/user/profile, the session from one API) spread over both
 *   APIs, p50 / p95 at 50 and 200 concurrent clients (SCALE_CLIENTS), SCALE_SECONDS (10) each, workers idle;
 * - queue wait (row created -> a worker starts it) as the queue grows: SCALE_QUEUE (10,40,80) jobs submitted at
 *   once, 2 workers.
 * Each row carries the 1-minute load average when its measure ended: other work on the machine moves the figures.
 * `--smoke`: 2 jobs per batch, 2 clients for 1 s. Goal: 2 workers run at least 1.6x the jobs per minute of 1 (two cores, one thread each).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readHeartbeats } from '../../server/src/modules/workers';
import { Cluster, type Customer } from '../../server/src/test/cluster';
import { percentile } from '../lib/load';
import { sized } from '../lib/smoke';
import { spreadLoad } from '../lib/spread-load';
import type { BenchSection } from '../lib/types';

const FIXTURES = path.resolve(__dirname, '..', '..', 'worker', 'src', 'test-support', 'fixtures');
const PHOTOS = ['astronaut.png', 'chelsea.png', 'coffee.png', 'motorcycle_left.png'];
const numbers = (value: string | undefined, fallback: number[]) =>
  value ? value.split(',').map((v) => Number(v.trim())) : fallback;
const JOBS = sized(Number(process.env.SCALE_JOBS ?? 20), 2);
const CLIENTS = sized(numbers(process.env.SCALE_CLIENTS, [50, 200]), [2]);
const SECONDS = sized(Number(process.env.SCALE_SECONDS ?? 10), 1);
const QUEUE = sized(numbers(process.env.SCALE_QUEUE, [10, 40, 80]), [2]);
const SCALING_GOAL = 1.6;

const load1 = () => Number(os.loadavg()[0]!.toFixed(2));
const round = (v: number, digits = 1) => Number(v.toFixed(digits));

interface Batch {
  rows: Awaited<ReturnType<Cluster['waitForJobs']>>;
  failed: number;
}

/** Submits `count` jobs at once (the customers side by side, each job to the next API), waits for all of them. */
async function batch(cluster: Cluster, customers: Customer[], photos: Buffer[], count: number): Promise<Batch> {
  const ids = await Promise.all(
    customers.map(async (customer, c) => {
      const mine: string[] = [];
      for (let j = c; j < count; j += customers.length) {
        const api = cluster.apis[j % cluster.apis.length]!;
        mine.push(await cluster.removeBackground(api, customer, photos[j % photos.length]!, PHOTOS[j % PHOTOS.length]));
      }
      return mine;
    }),
  );
  const rows = await cluster.waitForJobs(ids.flat(), 30 * 60_000);
  return { rows, failed: rows.filter((r) => r.status !== 'succeeded').length };
}

/** Jobs per minute of one batch: its jobs over the time from the first row created to the last finished. */
function perMinute({ rows }: Batch): number {
  const first = Math.min(...rows.map((r) => r.createdAt.getTime()));
  const last = Math.max(...rows.map((r) => r.finishedAt.getTime()));
  return (rows.length * 60_000) / (last - first);
}

export default async function scaleSection(): Promise<BenchSection> {
  const loadBefore = load1();
  const photos = PHOTOS.map((name) => fs.readFileSync(path.join(FIXTURES, name)));
  const cluster = await Cluster.start({ tag: 'bench_scale', apis: 2, workers: 1 });
  const rows: BenchSection['rows'] = [];
  const notes: string[] = [];
  try {
    const customers = await Promise.all([0, 1, 2, 3].map((i) => cluster.customer(100_000, cluster.apis[i % 2])));
    // One untimed job per worker first: a fresh process's first inference is slower than the rest.
    await batch(cluster, customers, photos, 1);

    const one = await batch(cluster, customers, photos, JOBS);
    const onePerMinute = perMinute(one);
    rows.push({
      measure: 'jobs per minute, 1 worker',
      value: round(onePerMinute),
      jobs: JOBS,
      failed: one.failed,
      load: load1(),
    });
    cluster.startWorker();
    await cluster.waitForWorkers(2);
    await batch(cluster, customers, photos, 2);
    const two = await batch(cluster, customers, photos, JOBS);
    const twoPerMinute = perMinute(two);
    rows.push({
      measure: 'jobs per minute, 2 workers',
      value: round(twoPerMinute),
      jobs: JOBS,
      failed: two.failed,
      load: load1(),
    });

    for (const size of QUEUE) {
      const queued = await batch(cluster, customers, photos, size);
      const waits = queued.rows.map((r) => (r.startedAt ?? r.finishedAt).getTime() - r.createdAt.getTime());
      rows.push({
        measure: `queue wait s with ${size} queued (2 workers): p50 / max`,
        value: `${round(percentile(waits, 50) / 1000)} / ${round(Math.max(...waits) / 1000)}`,
        jobs: size,
        failed: queued.failed,
        load: load1(),
      });
    }

    const reader = customers[0]!;
    const bases = cluster.apis.map((a) => a.baseUrl);
    const headers = { Cookie: reader.cookie };
    // Untimed: the APIs have served uploads only so far; their first seconds of profile reads run colder code.
    await spreadLoad(bases, '/api/user/profile', { connections: CLIENTS[0]!, durationSeconds: sized(3, 1), headers });
    for (const connections of CLIENTS) {
      const result = await spreadLoad(bases, '/api/user/profile', { connections, durationSeconds: SECONDS, headers });
      rows.push({
        measure: `GET /api/user/profile over 2 APIs, ${connections} clients: p50 / p95 ms (req/s)`,
        value: `${round(result.p50Ms)} / ${round(result.p95Ms)} (${result.requestsPerSec})`,
        jobs: '-',
        failed: result.errors + result.non2xx,
        load: load1(),
      });
    }
    const ratio = twoPerMinute / onePerMinute;
    const beats = await readHeartbeats(cluster.t.ctx);
    const precisions = [...new Set(beats.map((b) => JSON.stringify(b.precisions ?? {})))].join(', ');
    notes.push(
      `${os.cpus().length} cores; workers: WORKER_CONCURRENCY=1, WORKER_CPU_THREADS=1, remove-background only (${precisions}); photos ${PHOTOS.join(', ')}`,
      `load average (1 min) before the cluster started: ${loadBefore}`,
      'load = 1-minute load average when the measure ended (the bench itself adds up to ~4: two APIs, two workers)',
    );
    return {
      name: 'scale',
      rows,
      goals: [
        {
          label: 'jobs per minute, 2 workers / 1 worker',
          value: round(ratio, 2),
          target: `>= ${SCALING_GOAL}`,
          met: ratio >= SCALING_GOAL,
        },
      ],
      notes,
    };
  } finally {
    await cluster.close();
  }
}

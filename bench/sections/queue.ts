/**
 * Image-job queue: 200 jobs through the real API, BullMQ queue and event listener, with a no-op worker
 * handler, one job at a time (so no job waits behind another). Measured per job on one clock (API,
 * worker and client share the process): POST /api/tools/generate sent -> the worker's handler starts,
 * and the handler returns -> GET /api/jobs/{id} first shows `succeeded`. Goal: p50 < 50 ms each.
 */
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { registerUser } from '../../server/src/modules/auth/auth.service';
import { startJobEvents } from '../../server/src/modules/jobs/job-events';
import { applyEntryNow } from '../../server/src/modules/ledger/ledger.service';
import { markEmailVerified } from '../../server/src/modules/users/users.repository';
import { startTestWorker } from '../../server/src/test/test-worker';
import { startBenchApp } from '../lib/app';
import { cookieString, mergeCookies } from '../lib/cookies';
import { percentile } from '../lib/load';
import { sized } from '../lib/smoke';
import type { BenchSection } from '../lib/types';

const JOBS = sized(200, 10);
const GOAL_MS = 50;
const PASSWORD = 'Bench1234';
const POLL_MS = 2;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export default async function queueSection(): Promise<BenchSection> {
  const app = await startBenchApp({
    QUEUE_PREFIX: `bench-${randomUUID().slice(0, 8)}`,
    RATE_LIMIT_PREFIX: `rl-bench-${randomUUID().slice(0, 8)}`,
    JOB_SUBMIT_RATE_PER_MINUTE: '100000',
  });
  const { base, ctx, config, deps } = app;
  const stopEvents = await startJobEvents(ctx);

  const startedAt = new Map<string, number>();
  const endedAt = new Map<string, number>();
  const worker = await startTestWorker({
    redisUrl: config.REDIS_URL,
    queueDb: config.QUEUE_REDIS_DB,
    queuePrefix: config.QUEUE_PREFIX,
    s3: { endpoint: deps.storage.endpoint, bucket: deps.storage.bucket },
    behaviour: 'noop',
    concurrency: 1,
    onStart: (id) => startedAt.set(id, performance.now()),
    onEnd: (id) => endedAt.set(id, performance.now()),
  });

  try {
    const email = `bench-queue-${randomUUID().slice(0, 8)}@example.test`;
    const user = await registerUser(ctx, {
      name: 'Bench',
      surname: 'Queue',
      email,
      phone: '+44 7911 123456',
      phoneE164: '+447911123456',
      password: PASSWORD,
      password_confirmation: PASSWORD,
    } as never);
    await markEmailVerified(ctx.db, user.id);
    await applyEntryNow(ctx.db, {
      userId: user.id,
      deltaTenths: JOBS * 10,
      kind: 'adjustment',
      idempotencyKey: `bench-queue:${user.id}`,
    });
    const cookies = mergeCookies(new Map(), await fetch(`${base}/api/csrf`));
    const xsrf = () => decodeURIComponent(cookies.get('XSRF-TOKEN') ?? '');
    const cookie = () => cookieString(cookies);
    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-XSRF-TOKEN': xsrf(), Cookie: cookie() },
      body: JSON.stringify({ username: email, password: PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`login answered ${login.status}`);
    mergeCookies(cookies, login);

    const toStart: number[] = [];
    const toVisible: number[] = [];
    const accept: number[] = [];
    for (let i = 0; i < JOBS; i += 1) {
      const sent = performance.now();
      const res = await fetch(`${base}/api/tools/generate`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-XSRF-TOKEN': xsrf(), Cookie: cookie() },
        body: JSON.stringify({ prompt: `bench ${i}`, size: '1024x1024' }),
      });
      accept.push(performance.now() - sent);
      if (res.status !== 202) throw new Error(`submit answered ${res.status}: ${await res.text()}`);
      const id = ((await res.json()) as { payload: { id: string } }).payload.id;
      for (;;) {
        const view = await fetch(`${base}/api/jobs/${id}`, { headers: { Cookie: cookie() } });
        const status = ((await view.json()) as { payload: { status: string } }).payload.status;
        if (status === 'succeeded') {
          const seen = performance.now();
          toStart.push(startedAt.get(id)! - sent);
          toVisible.push(seen - endedAt.get(id)!);
          break;
        }
        if (status === 'failed' || status === 'cancelled') throw new Error(`job ${id} ended ${status}`);
        await sleep(POLL_MS);
      }
    }

    const row = (label: string, values: number[]) => ({
      measure: label,
      'p50 ms': Number(percentile(values, 50).toFixed(1)),
      'p99 ms': Number(percentile(values, 99).toFixed(1)),
      'max ms': Number(Math.max(...values).toFixed(1)),
      jobs: values.length,
    });
    const start50 = percentile(toStart, 50);
    const visible50 = percentile(toVisible, 50);
    return {
      name: 'queue',
      rows: [
        row('POST /api/tools/generate -> 202', accept),
        row('POST sent -> worker handler starts', toStart),
        row('worker handler returns -> GET /api/jobs/{id} shows succeeded', toVisible),
      ],
      goals: [
        {
          label: 'accept -> worker start p50 (ms)',
          value: Number(start50.toFixed(1)),
          target: `< ${GOAL_MS}`,
          met: start50 < GOAL_MS,
        },
        {
          label: 'worker end -> visible in GET p50 (ms)',
          value: Number(visible50.toFixed(1)),
          target: `< ${GOAL_MS}`,
          met: visible50 < GOAL_MS,
        },
      ],
      notes: [
        `${JOBS} generate jobs one at a time, no-op handler (test worker, concurrency 1) on the real BullMQ queue; QueueEvents -> Postgres finalisation`,
        `visibility is polled every ${POLL_MS} ms, so it includes up to ${POLL_MS} ms of polling granularity plus one GET`,
      ],
    };
  } finally {
    await worker.close();
    await stopEvents();
    await app.close();
  }
}

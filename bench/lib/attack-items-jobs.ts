import sharp from 'sharp';
import { compositionsPrefix } from '@imagestudio/runtime';
import { ATTACK_PASSWORD, type AttackItem, HEAVY_COMPOSE, STALL_MS, count, ms, sleep } from './attack-bed';
import { Browser, cpuSettled, drain, slowImageServer, timedGet, unreadGet } from './attack-kit';

/** The attack items on downloads, re-compositions, jobs and Redis (bench/sections/attack.ts runs them). */
export const JOB_ITEMS: AttackItem[] = [
  {
    n: 1,
    item: 'unread ledger.csv downloads',
    sent: `10 GET /api/user/ledger.csv never read, of a 40,000-row ledger with 1 KB reasons (about 40 MB, more than loopback's socket buffers hold); stall limit ${STALL_MS} ms`,
    async run({ ctx, base, pid }, { account }) {
      const owner = await account('ledger', 5);
      await ctx.db.raw(
        `insert into token_ledger (user_id, delta_tenths, kind, idempotency_key, balance_after_tenths, reason)
           select ?, 1, 'adjustment', 'bench:attack:' || gen_random_uuid(), 100 + g,
                  'Goodwill ' || g || ' ' || repeat('for a long support case ', 40)
           from generate_series(1, 40000) g`,
        [owner.id],
      );
      const browser = await Browser.signIn(base, owner.email, ATTACK_PASSWORD);
      const reads = ['/api/health', '/api/user/profile', '/api/jobs'];
      for (const p of reads) await timedGet(`${base}${p}`, { cookie: browser.cookie }); // caches
      const ledgerQueries = async () =>
        Number(
          (
            await ctx.db.raw(
              `select count(*)::int as n from pg_stat_activity
                 where datname = current_database() and state <> 'idle' and query ilike '%token_ledger%'
                   and pid <> pg_backend_pid()`,
            )
          ).rows[0].n,
        );
      const opened = performance.now();
      const sockets = Array.from({ length: 10 }, () => unreadGet(base, '/api/user/ledger.csv', browser.cookie));
      // The clients' buffers fill and the server's writes stop: wait until the API uses no more CPU.
      const stalledAfter = await cpuSettled(pid, 60_000);
      const stalledAt = performance.now();
      const timings: string[] = [];
      let slowest = 0;
      let allOk = true;
      for (const p of reads) {
        const { status, ms: took } = await timedGet(`${base}${p}`, { cookie: browser.cookie });
        timings.push(`${p} ${status} in ${ms(took)}`);
        slowest = Math.max(slowest, took);
        if (status !== 200) allOk = false;
      }
      let activeMax = 0;
      for (let i = 0; i < 5; i++) {
        activeMax = Math.max(activeMax, await ledgerQueries());
        await sleep(200);
      }
      // Past the stall limit the server has ended them: resumed now, each must stop short of the last chunk.
      await sleep(Math.max(0, STALL_MS + 3000 - (performance.now() - stalledAt)));
      const resumedAfter = performance.now() - opened;
      const drained = await Promise.all(sockets.map((s) => drain(s, 15_000)));
      const cut = drained.filter((d) => d.outcome === 'cut').length;
      const activeAfter = await ledgerQueries();
      const held = allOk && slowest < 1000 && activeMax === 0 && activeAfter === 0 && cut === 10;
      return {
        measured:
          `API writes stopped ${ms(stalledAfter)} after the opens; while stalled: ${timings.join(', ')}; token_ledger queries active ${activeMax} (5 looks); ` +
          `read again at ${ms(resumedAfter)}: ${count(drained.map((d) => d.outcome))} ` +
          `(cut = ended by the server before the last chunk; ${count(drained.map((d) => `${(d.bytes / 1e6).toFixed(1)} MB`))} read); ` +
          `active after ${activeAfter}`,
        verdict: held ? 'HELD' : 'BROKEN',
      };
    },
  },
  {
    n: 2,
    item: 'free re-composition bounded',
    sent: 'compose canvas=8000x8000 on a 300x200 cut-out; then 2 accounts x 4 concurrent composes (2048x2048, blur 20, PNG) while a 3rd uploads a 64x64 PNG',
    async run({ base }, { account, png64, imageForm, cutoutJob, composeForm }) {
      const [a, b, c] = await Promise.all([account('compose-a', 5), account('compose-b', 5), account('upload', 5)]);
      const [ba, bb, bc] = await Promise.all([a, b, c].map((u) => Browser.signIn(base, u.email, ATTACK_PASSWORD)));
      const [ja, jb] = await Promise.all([cutoutJob(ba!), cutoutJob(bb!)]);
      const t0 = performance.now();
      const huge = await ba!.request('POST', `/api/jobs/${ja}/compose`, composeForm({ canvas: '8000x8000' }));
      const hugeMs = performance.now() - t0;
      const composes = [ba, ba, ba, ba, bb, bb, bb, bb].map((br, i) =>
        br!.request('POST', `/api/jobs/${i < 4 ? ja : jb}/compose`, composeForm(HEAVY_COMPOSE)).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      );
      await sleep(300);
      const uploads: Array<{ status: number; ms: number }> = [];
      for (let i = 0; i < 2; i++) {
        const started = performance.now();
        const res = await bc!.request('POST', '/api/tools/remove-background', imageForm(png64));
        await res.arrayBuffer();
        uploads.push({ status: res.status, ms: performance.now() - started });
      }
      const statuses = await Promise.all(composes);
      const refused = statuses.filter((s) => s === 429 || s === 503).length;
      const slowest = Math.max(...uploads.map((u) => u.ms));
      const held =
        huge.status === 422 &&
        statuses.every((s) => [201, 429, 503].includes(s)) &&
        refused > 0 &&
        uploads.every((u) => u.status === 202) &&
        slowest < 2000;
      return {
        measured:
          `8000x8000: ${huge.status} in ${ms(hugeMs)}; concurrent composes: ${count(statuses)}; ` +
          `other customer's uploads: ${uploads.map((u) => `${u.status} in ${ms(u.ms)}`).join(', ')}`,
        verdict: held ? 'HELD' : 'BROKEN',
      };
    },
  },
  {
    n: 5,
    item: 'remove.bg caller hanging up early',
    sent: 'image_url on a host sending a 256x256 PNG over 1.6 s; callers abort at 150, 380, 600, 800 ms; then one caller that waits',
    async run({ ctx, base }, { account, keyOf, balanceOf }) {
      const owner = await account('hangup', 10);
      const key = await keyOf(owner.id);
      const photo = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#227744' } })
        .png()
        .toBuffer();
      const slow = await slowImageServer(photo, 8, 200);
      try {
        const call = (abortMs?: number) =>
          fetch(`${base}/v1.0/removebg`, {
            method: 'POST',
            headers: { 'X-Api-Key': key, 'Content-Type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ image_url: slow.url, size: 'preview' }).toString(),
            signal: AbortSignal.timeout(abortMs ?? 60_000),
          }).then(
            async (res) => {
              await res.arrayBuffer();
              return String(res.status);
            },
            () => 'aborted',
          );
        const before = await balanceOf(owner.id);
        const outcomes = await Promise.all([150, 380, 600, 800].map((t) => call(t)));
        // The download ends and any job admitted anyway runs: wait until none is left open.
        await sleep(2500);
        const openStatuses = ['queued', 'running'];
        const deadline = Date.now() + 15_000;
        let jobs = await ctx.db('image_jobs').where({ user_id: owner.id });
        while (jobs.some((j: { status: string }) => openStatuses.includes(j.status)) && Date.now() < deadline) {
          await sleep(250);
          jobs = await ctx.db('image_jobs').where({ user_id: owner.id });
        }
        await sleep(500);
        jobs = await ctx.db('image_jobs').where({ user_id: owner.id });
        const after = await balanceOf(owner.id);
        const unrefunded = jobs.filter((j: { refunded: boolean }) => !j.refunded).length;
        const control = await call();
        const afterControl = await balanceOf(owner.id);
        const held = after === before && unrefunded === 0 && outcomes.every((o) => o === 'aborted');
        const reached = control === '200' && afterControl < after;
        return {
          measured:
            `callers: ${count(outcomes)}; balance ${before / 10} -> ${after / 10} tokens; jobs admitted ${jobs.length}, ` +
            `${jobs.length - unrefunded} refunded (${count(jobs.map((j: { status: string }) => j.status))}); ` +
            `the waiting caller: ${control}, charged ${(after - afterControl) / 10}`,
          verdict: !reached ? 'ERROR' : held ? 'HELD' : 'BROKEN',
        };
      } finally {
        await slow.close();
      }
    },
  },
  {
    n: 6,
    item: 'compose racing DELETE /api/jobs/{id}',
    sent: '3 jobs: a 2048x2048 compose each, DELETE 0, 150 and 400 ms after it starts',
    async run({ deps, base }, { account, cutoutJob, composeForm }) {
      const owner = await account('race', 5);
      const browser = await Browser.signIn(base, owner.email, ATTACK_PASSWORD);
      const outcomes: string[] = [];
      let left = 0;
      for (const delay of [0, 150, 400]) {
        const jobId = await cutoutJob(browser);
        const composing = browser
          .request('POST', `/api/jobs/${jobId}/compose`, composeForm(HEAVY_COMPOSE))
          .then(async (r) => (await r.arrayBuffer(), r.status));
        await sleep(delay);
        const del = await browser.request('DELETE', `/api/jobs/${jobId}`);
        await del.arrayBuffer();
        const composed = await composing;
        await sleep(500);
        const files = await deps.storage.deletePrefix(compositionsPrefix({ userId: owner.id, jobId }));
        left += files;
        outcomes.push(`+${delay} ms: compose ${composed}, delete ${del.status}, ${files} file(s) left`);
      }
      return { measured: outcomes.join('; '), verdict: left === 0 ? 'HELD' : 'BROKEN' };
    },
  },
  {
    n: 10,
    item: '/v1.0/account while Redis is unreachable',
    sent: "GET /v1.0/account with a valid key after the API's (private) Redis was shut down",
    async run({ base, redis, closeWorker }, { account, keyOf }) {
      const owner = await account('redis', 10);
      const key = await keyOf(owner.id);
      const ok = await fetch(`${base}/v1.0/account`, { headers: { 'X-Api-Key': key } });
      await ok.arrayBuffer();
      await closeWorker();
      await redis.stop();
      try {
        const started = performance.now();
        const res = await fetch(`${base}/v1.0/account`, {
          headers: { 'X-Api-Key': key },
          signal: AbortSignal.timeout(30_000),
        });
        const text = await res.text();
        const took = performance.now() - started;
        const retryAfter = res.headers.get('retry-after');
        return {
          measured: `before the stop ${ok.status}; during: ${res.status} in ${ms(took)}, Retry-After ${retryAfter ?? '-'}, ${text.slice(0, 120)}`,
          verdict: res.status === 503 ? 'HELD' : 'BROKEN',
        };
      } finally {
        await redis.start();
      }
    },
  },
];

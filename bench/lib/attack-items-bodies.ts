import sharp from 'sharp';
import { type AttackItem, count, ms, sleep } from './attack-bed';
import { cpuSeconds, heldRequest, rssMiB, rssPeak, timedGet, writeWhenReady } from './attack-kit';
import { percentile } from './load';

/**
 * Item 3: what the API's memory may grow by while 30 trickled 27 MB bodies arrive. Bodies past 256 KB go to disk,
 * so the growth does not depend on how many are admitted (measured on 2 cores: +104 MiB with 2 admitted, +108 with
 * 8); it is the churn of reading the 22-28 refused bodies and dropping them, not bodies held. Buffered in memory,
 * the 8 admitted bodies cost 27 MB each (+253 MiB).
 */
const SPOOLED_BODIES_RSS_BOUND_MIB = 128;

/** The attack items on request bodies and uploads (bench/sections/attack.ts runs them). */
export const BODY_ITEMS: AttackItem[] = [
  {
    n: 3,
    item: 'trickled 27 MB JSON bodies to /v1.0/removebg',
    sent: '30 sockets, one key, Content-Length 27,000,000: each sends 26.9 MB as fast as accepted, then 1 KB every 500 ms',
    async run({ base, pid }, { account, keyOf }) {
      const owner = await account('json', 10);
      const key = await keyOf(owner.id);
      const healthBefore: number[] = [];
      for (let i = 0; i < 10; i++) healthBefore.push((await timedGet(`${base}/api/health`)).ms);
      const rssBefore = rssMiB(pid);
      const peak = rssPeak(pid);
      const fast = Buffer.alloc(64 * 1024, 'A');
      const trickle = Buffer.alloc(1024, 'A');
      const bodies = Array.from({ length: 30 }, () =>
        heldRequest(
          base,
          '/v1.0/removebg',
          { 'X-Api-Key': key, 'Content-Type': 'application/json' },
          27_000_000,
          '{"image_file_b64":"',
        ),
      );
      const senders = bodies.map(async (held) => {
        for (let sent = 0; sent < 26_900_000; sent += fast.length) if (!(await writeWhenReady(held, fast))) return;
        while (held.status() === null && !held.req.destroyed) {
          held.req.write(trickle);
          await sleep(500);
        }
      });
      let sampling = true;
      const health: number[] = [];
      const sampler = (async () => {
        while (sampling) {
          health.push((await timedGet(`${base}/api/health`)).ms);
          await sleep(100);
        }
      })();
      const answers = await Promise.all(bodies.map((b) => b.answeredWithin(90_000)));
      sampling = false;
      await sampler;
      const rssMax = peak.stop();
      for (const b of bodies) b.req.destroy();
      await Promise.all(senders);
      const admitted = answers.filter((s) => s !== 429).length;
      const trickledEnds = bodies
        .filter((b) => b.status() === 408)
        .map((b) => b.answeredAfterMs()!)
        .sort((x, y) => x - y);
      const growth = rssMax - rssBefore;
      // Admitted bodies are spooled to disk past 256 KB: memory stays flat however many are in flight.
      const bound = SPOOLED_BODIES_RSS_BOUND_MIB;
      const p50 = percentile(health, 50);
      const held =
        admitted <= 8 &&
        answers.every((s) => s === 429 || s === 408) &&
        growth < bound &&
        p50 < 250 &&
        trickledEnds.length === admitted;
      return {
        measured:
          `answers: ${count(answers)} (408s after ${trickledEnds.map((v) => (v / 1000).toFixed(1)).join(', ')} s); ` +
          `API RSS ${Math.round(rssBefore)} -> peak ${Math.round(rssMax)} MiB (+${Math.round(growth)} with ${admitted} admitted, bound ${bound}); ` +
          `/api/health p50 ${ms(percentile(healthBefore, 50))} before, during p50 ${ms(p50)}, max ${ms(Math.max(...health))} (${health.length} calls)`,
        verdict: held ? 'HELD' : 'BROKEN',
      };
    },
  },
  {
    n: 4,
    item: 'zero-balance key, small file decoding to 25 MP',
    sent: '10 concurrent POST /v1.0/removebg, multipart image_file: a 5000x5000 WebP',
    async run({ base, pid }, { account, keyOf }) {
      const owner = await account('empty', 0);
      const key = await keyOf(owner.id);
      const webp = await sharp({ create: { width: 5000, height: 5000, channels: 3, background: '#c08040' } })
        .webp()
        .toBuffer();
      const cpuBefore = cpuSeconds(pid);
      const started = performance.now();
      const statuses = await Promise.all(
        Array.from({ length: 10 }, async () => {
          const form = new FormData();
          form.append('image_file', new Blob([new Uint8Array(webp)], { type: 'image/webp' }), 'big.webp');
          try {
            const res = await fetch(`${base}/v1.0/removebg`, {
              method: 'POST',
              headers: { 'X-Api-Key': key },
              body: form,
              signal: AbortSignal.timeout(60_000),
            });
            await res.arrayBuffer();
            return String(res.status);
          } catch (err) {
            return `error ${(err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).message}`;
          }
        }),
      );
      const wall = performance.now() - started;
      await sleep(300);
      const cpu = cpuSeconds(pid) - cpuBefore;
      const held = statuses.every((s) => s === '402') && wall < 3000 && cpu < 1;
      return {
        measured: `${count(statuses)} in ${ms(wall)}; API CPU across them ${cpu.toFixed(2)} s (file ${(webp.length / 1024).toFixed(1)} KB)`,
        verdict: held ? 'HELD' : 'BROKEN',
      };
    },
  },
  {
    n: 7,
    item: '40 concurrent uploads from one customer',
    sent: '40 POST /api/tools/remove-background at once with one API key, each a 64x64 PNG plus 10 MB of filler (Node fetch)',
    async run({ base }, { account, keyOf, png64 }) {
      const owner = await account('burst', 100);
      const key = await keyOf(owner.id);
      const boundary = 'attack-burst';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png64,
        Buffer.alloc(10 * 1024 * 1024),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const started = performance.now();
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, () =>
          fetch(`${base}/api/tools/remove-background`, {
            method: 'POST',
            headers: { 'X-Api-Key': key, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
            body,
            signal: AbortSignal.timeout(60_000),
          }).then(
            async (res) => {
              await res.arrayBuffer();
              return { status: String(res.status), retryAfter: res.headers.get('retry-after') };
            },
            (err: Error & { cause?: { code?: string } }) => ({
              status: `error ${err.cause?.code ?? err.message}`,
              retryAfter: null,
            }),
          ),
        ),
      );
      const wall = performance.now() - started;
      const errors = outcomes.filter((o) => o.status.startsWith('error')).length;
      const refused = outcomes.filter((o) => o.status === '429');
      const withRetryAfter = refused.filter((o) => Number(o.retryAfter) > 0).length;
      return {
        measured: `${count(outcomes.map((o) => o.status))} in ${ms(wall)}; 429s with Retry-After ${withRetryAfter}/${refused.length}`,
        verdict: errors === 0 && withRetryAfter === refused.length ? 'HELD' : 'BROKEN',
      };
    },
  },
  {
    n: 8,
    item: 'a key runs 8 uploads at once',
    sent: '8 unfinished multipart uploads (5 MB announced) on one key, then a 9th; GET /v1.0/account',
    async run({ base }, { account, keyOf }) {
      const owner = await account('eight', 100);
      const key = await keyOf(owner.id);
      const start = () =>
        heldRequest(
          base,
          '/api/tools/remove-background',
          { 'X-Api-Key': key, 'Content-Type': 'multipart/form-data; boundary=b' },
          5_000_000,
          Buffer.concat([
            Buffer.from('--b\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\n'),
            Buffer.alloc(64 * 1024),
          ]),
        );
      const eight = Array.from({ length: 8 }, start);
      const firstEight = await Promise.all(eight.map((h) => h.answeredWithin(1000)));
      const ninth = start();
      const ninthStatus = await ninth.answeredWithin(3000);
      for (const h of [...eight, ninth]) h.req.destroy();
      const res = await fetch(`${base}/v1.0/account`, { headers: { 'X-Api-Key': key } });
      const limits = ((await res.json()) as { data?: { attributes?: { limits?: unknown } } }).data?.attributes
        ?.limits as Record<string, number> | undefined;
      const held =
        firstEight.every((s) => s === null) && ninthStatus === 429 && limits?.uploads_in_flight_per_key === 8;
      return {
        measured: `first 8: ${count(firstEight.map((s) => s ?? 'in flight'))}; 9th: ${ninthStatus ?? 'in flight'}; /v1.0/account ${res.status} limits ${JSON.stringify(limits)}`,
        verdict: held ? 'HELD' : 'BROKEN',
      };
    },
  },
  {
    n: 9,
    item: 'urlencoded body with 51 fields',
    sent: 'POST /v1.0/removebg, application/x-www-form-urlencoded: size=auto and 50 more fields',
    async run({ base }, { account, keyOf }) {
      const owner = await account('fields', 10);
      const key = await keyOf(owner.id);
      const fields = Array.from({ length: 50 }, (_, i) => `f${i}=x`).join('&');
      const res = await fetch(`${base}/v1.0/removebg`, {
        method: 'POST',
        headers: { 'X-Api-Key': key, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `size=auto&${fields}`,
      });
      const text = await res.text();
      return { measured: `${res.status} ${text.slice(0, 160)}`, verdict: res.status === 400 ? 'HELD' : 'BROKEN' };
    },
  },
];

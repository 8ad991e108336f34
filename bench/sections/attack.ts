/**
 * Attack pass (issue 39's items): the real API as a child process (`server/src/main.ts`, as `npm start` runs it) on
 * loopback, on a private Redis this section can stop, the configured Postgres and an embedded S3 held by this
 * process, with a stand-in worker (server/src/test/test-worker.ts) for jobs. Each item is attacked as the issue
 * describes and printed as one line: what was sent, what was measured, HELD or BROKEN (ERROR when the attack itself
 * failed, SKIPPED when it could not be made). The API runs with the default limits except DOWNLOAD_STALL_TIMEOUT_MS,
 * made 10 s for the run (60 s by default).
 * Goal: every item HELD, the whole section in under 5 minutes. ATTACK_ITEMS=1,3 runs some items only.
 * The bed and the accounts are bench/lib/attack-bed.ts; the items bench/lib/attack-items-*.ts.
 */
import os from 'node:os';
import { type AttackItem, STALL_MS, type Verdict, attackKit, startAttackBed } from '../lib/attack-bed';
import { BODY_ITEMS } from '../lib/attack-items-bodies';
import { JOB_ITEMS } from '../lib/attack-items-jobs';
import { sized } from '../lib/smoke';
import type { BenchSection } from '../lib/types';

/** ATTACK_ITEMS=1,3 runs those items alone (all by default; a smoke run takes the two quick ones). */
const ONLY = (process.env.ATTACK_ITEMS ?? sized<string | undefined>(undefined, '9,10'))
  ?.split(',')
  .map((v) => v.trim());

/** Every item, in the order they run (item 10 stops Redis, so it comes last). */
const ITEMS: AttackItem[] = [...JOB_ITEMS, ...BODY_ITEMS].sort((a, b) => a.n - b.n);

interface ItemResult {
  item: string;
  sent: string;
  measured: string;
  verdict: Verdict;
}

export default async function attack(): Promise<BenchSection> {
  const sectionStarted = performance.now();
  const bed = await startAttackBed();
  const results: ItemResult[] = [];
  try {
    const kit = await attackKit(bed.ctx);
    for (const item of ITEMS) {
      if (ONLY && !ONLY.includes(String(item.n))) continue;
      const started = performance.now();
      let result: ItemResult;
      try {
        result = { item: `${item.n}. ${item.item}`, sent: item.sent, ...(await item.run(bed, kit)) };
      } catch (err) {
        const measured = `the attack failed: ${(err as Error).message}`;
        result = { item: `${item.n}. ${item.item}`, sent: item.sent, measured, verdict: 'ERROR' };
      }
      results.push(result);
      console.log(`${result.verdict.padEnd(7)} ${result.item} | sent: ${result.sent} | measured: ${result.measured}`);
      console.log(`        (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  } finally {
    await bed.close();
  }

  const totalS = (performance.now() - sectionStarted) / 1000;
  const goals: BenchSection['goals'] = results
    .filter((r) => r.verdict !== 'SKIPPED')
    .map((r) => ({
      label: r.item,
      value: r.verdict === 'HELD' ? 1 : 0,
      target: 'HELD (1)',
      met: r.verdict === 'HELD',
    }));
  goals.push({ label: 'whole attack pass (s)', value: Math.round(totalS), target: '< 300', met: totalS < 300 });
  return {
    name: 'attack',
    rows: results.map((r) => ({ item: r.item, verdict: r.verdict, sent: r.sent, measured: r.measured })),
    goals,
    notes: [
      `API: server/src/main.ts as a child process (pid ${bed.pid}), default limits except DOWNLOAD_STALL_TIMEOUT_MS=${STALL_MS}; IMAGE_URL_ALLOW_HOSTS=127.0.0.1 for the slow image host`,
      "jobs run by the stand-in worker (server/src/test/test-worker.ts, background removal from the upload's own alpha), in this process, with the embedded S3",
      `machine load average at the end: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}; ${os.cpus().length} cores`,
    ],
  };
}

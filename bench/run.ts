/**
 * `npm run bench [--smoke] [section ...]`: runs each bench/sections/<name>.ts (all of them by default), prints a
 * table per section with its goals, and writes one JSON report to bench/results/<timestamp>.json. `--smoke` runs
 * them once each with a tiny input (bench/lib/smoke.ts): CI's check that the benches still run, with no goals judged.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchSection } from './lib/types';

async function main(): Promise<void> {
  const sectionsDir = path.join(__dirname, 'sections');
  const available = fs
    .readdirSync(sectionsDir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
  const args = process.argv.slice(2);
  // Set before any section is imported: the sections size their inputs when they load.
  if (args.includes('--smoke')) process.env.BENCH_SMOKE = '1';
  const smoke = process.env.BENCH_SMOKE === '1';
  const wanted = args.filter((a) => a !== '--smoke');
  const unknown = wanted.filter((w) => !available.includes(w));
  if (unknown.length > 0) {
    console.error(`unknown section(s): ${unknown.join(', ')}; available: ${available.join(', ')}`);
    process.exit(2);
  }
  const names = wanted.length > 0 ? wanted : available;
  const report: {
    startedAt: string;
    smoke: boolean;
    machine: Record<string, unknown>;
    sections: BenchSection[];
    failures: string[];
  } = {
    startedAt: new Date().toISOString(),
    smoke,
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
    },
    sections: [],
    failures: [],
  };
  for (const name of names) {
    console.log(`\n== ${name} ==`);
    const started = Date.now();
    try {
      const mod = (await import(path.join(sectionsDir, `${name}.ts`))) as { default: () => Promise<BenchSection> };
      const section = await mod.default();
      report.sections.push(section);
      console.table(section.rows);
      for (const goal of smoke ? [] : section.goals) {
        console.log(`${goal.met ? 'MET   ' : 'MISSED'} ${goal.label}: ${goal.value} (goal ${goal.target})`);
      }
      for (const note of section.notes ?? []) console.log(`note: ${note}`);
      console.log(`(${name}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (err) {
      console.error(`section ${name} failed: ${(err as Error).stack ?? err}`);
      report.failures.push(`${name}: ${(err as Error).message}`);
    }
  }
  const outDir = path.join(__dirname, 'results');
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `${report.startedAt.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(report, null, 2));
  console.log(`\nreport written to ${path.relative(process.cwd(), file)}`);
  process.exit(report.failures.length > 0 ? 1 : 0);
}

void main();

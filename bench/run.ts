/**
 * `npm run bench [section ...]`: runs each bench/sections/<name>.ts (all of them by default), prints a
 * table per section with its goals, and writes one JSON report to bench/results/<timestamp>.json.
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
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !available.includes(w));
  if (unknown.length > 0) {
    console.error(`unknown section(s): ${unknown.join(', ')}; available: ${available.join(', ')}`);
    process.exit(2);
  }
  const names = wanted.length > 0 ? wanted : available;
  const report: { startedAt: string; machine: Record<string, unknown>; sections: BenchSection[]; failures: string[] } =
    {
      startedAt: new Date().toISOString(),
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
    try {
      const mod = (await import(path.join(sectionsDir, `${name}.ts`))) as { default: () => Promise<BenchSection> };
      const section = await mod.default();
      report.sections.push(section);
      console.table(section.rows);
      for (const goal of section.goals) {
        console.log(`${goal.met ? 'MET   ' : 'MISSED'} ${goal.label}: ${goal.value} (goal ${goal.target})`);
      }
      for (const note of section.notes ?? []) console.log(`note: ${note}`);
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

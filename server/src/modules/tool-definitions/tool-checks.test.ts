import fs from 'node:fs';
import path from 'node:path';
import { BATCH_TOOLS, JOB_NAMES } from '@imagestudio/contracts';

/**
 * The CHECK constraints that list tools are invisible to TypeScript: a tool added to the contracts without a
 * migration type-checks and then fails at its first insert. This reads the migrations themselves (no database):
 * the newest migration that sets each constraint must list exactly the registry's tools.
 */
const MIGRATIONS_DIR = path.resolve(__dirname, '../../../../migrations');

const TOOL_CHECKS: Record<string, readonly string[]> = {
  image_jobs_tool_check: JOB_NAMES,
  batches_tool_check: BATCH_TOOLS,
};

/**
 * The tool names of the last `add constraint <name> check (tool in (...))` that `source` runs on the way up (its
 * `down` puts the older list back, so it is left out), or null when it sets no such constraint.
 */
function toolsOfCheck(source: string, name: string): string[] | null {
  const up = source.split(/export\s+async\s+function\s+down\b/)[0]!;
  const pattern = new RegExp(`add\\s+constraint\\s+${name}\\s+check\\s*\\(\\s*tool\\s+in\\s*\\(([^)]*)\\)`, 'gi');
  const lists = [...up.matchAll(pattern)].map((m) => [...m[1]!.matchAll(/'([^']+)'/g)].map((q) => q[1]!));
  return lists.at(-1) ?? null;
}

const migrations = fs
  .readdirSync(MIGRATIONS_DIR)
  .filter((file) => /^\d+_.+\.ts$/.test(file))
  .sort()
  .map((file) => ({ file, source: fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8') }));

describe('the migrations that list tools', () => {
  it.each(Object.entries(TOOL_CHECKS))('the newest migration setting %s lists exactly its tools', (name, tools) => {
    const latest = migrations
      .map(({ file, source }) => ({ file, names: toolsOfCheck(source, name) }))
      .filter((m) => m.names !== null)
      .at(-1);
    expect(latest).toBeDefined();
    expect({ migration: latest!.file, tools: [...latest!.names!].sort() }).toEqual({
      migration: latest!.file,
      tools: [...tools].sort(),
    });
  });

  it('reads a constraint written over several lines', () => {
    const source = `await knex.raw(\`alter table t add constraint x_tool_check
      check (tool in ('a', 'b'))\`);`;
    expect(toolsOfCheck(source, 'x_tool_check')).toEqual(['a', 'b']);
    expect(toolsOfCheck(source, 'y_tool_check')).toBeNull();
  });

  it("reads a migration's up, not the older list its down puts back", () => {
    const source = `export async function up(knex) {
      await knex.raw("alter table t add constraint x_tool_check check (tool in ('a', 'b', 'c'))");
    }
    export async function down(knex) {
      await knex.raw("alter table t add constraint x_tool_check check (tool in ('a', 'b'))");
    }`;
    expect(toolsOfCheck(source, 'x_tool_check')).toEqual(['a', 'b', 'c']);
  });
});

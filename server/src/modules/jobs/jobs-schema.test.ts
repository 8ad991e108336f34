import { BATCH_TOOLS, JOB_NAMES, TOOLS } from '@imagestudio/contracts';
import toolStrings from '../../../../migrations/seeds/strings/client-tools.json';
import { connectDb, type Db } from '../../lib/db';
import { TEST_DATABASE_URL } from '@imagestudio/runtime/testing';

/**
 * Every CHECK constraint that names tools, with the list of the contracts it must equal. Such a constraint is
 * invisible to TypeScript: a tool added to the contracts without a migration would type-check and then fail at
 * the first insert.
 */
const TOOL_CHECKS: Record<string, readonly string[]> = {
  image_jobs_tool_check: JOB_NAMES,
  batches_tool_check: BATCH_TOOLS,
};

const namesIn = (def: string) => [...def.matchAll(/'([^']+)'::text/g)].map((m) => m[1]!).sort();

describe('tool constraints', () => {
  let db: Db;
  let checks: { name: string; def: string }[];
  beforeAll(async () => {
    db = await connectDb(TEST_DATABASE_URL, { min: 0, max: 1 });
    const { rows } = await db.raw<{ rows: { name: string; def: string }[] }>(
      `select conname as name, pg_get_constraintdef(oid) as def from pg_constraint where contype = 'c'`,
    );
    checks = rows;
  });
  afterAll(async () => {
    await db.destroy();
  });

  it.each(Object.entries(TOOL_CHECKS))('%s allows exactly its list of tools', (name, tools) => {
    const found = checks.filter((c) => c.name === name);
    expect(found).toHaveLength(1);
    expect(namesIn(found[0]!.def)).toEqual([...tools].sort());
  });

  it('knows every CHECK constraint that names a tool', () => {
    const naming = checks.filter((c) => namesIn(c.def).some((n) => (JOB_NAMES as readonly string[]).includes(n)));
    expect(naming.map((c) => c.name).sort()).toEqual(Object.keys(TOOL_CHECKS).sort());
  });
});

describe('tool names in the strings table', () => {
  it.each(Object.entries(toolStrings))('names every tool in %s', (_language, strings) => {
    const missing = TOOLS.filter((tool) => !(tool.labelKey in strings)).map((tool) => tool.name);
    expect(missing).toEqual([]);
  });
});

import { JOB_NAMES } from '@imagestudio/contracts';
import toolStrings from '../../../../migrations/seeds/strings/client-tools.json';
import { connectDb, type Db } from '../../lib/db';
import { TEST_DATABASE_URL } from '@imagestudio/runtime/testing';

/**
 * The jobs table names its tools in a CHECK constraint, which TypeScript cannot see: adding a tool to JOB_NAMES
 * without a migration would type-check and then fail at the first insert. This keeps the two lists equal.
 */
describe('image_jobs tool constraint', () => {
  let db: Db;
  beforeAll(async () => {
    db = await connectDb(TEST_DATABASE_URL, { min: 0, max: 1 });
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('allows exactly the job names of the queue contract', async () => {
    const { rows } = await db.raw<{ rows: { def: string }[] }>(
      `select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'image_jobs_tool_check'`,
    );
    expect(rows).toHaveLength(1);
    const allowed = [...rows[0]!.def.matchAll(/'([^']+)'::text/g)].map((m) => m[1]).sort();
    expect(allowed).toEqual([...JOB_NAMES].sort());
  });
});

describe('tool names in the strings table', () => {
  it.each(Object.entries(toolStrings))('names every tool in %s', (_language, strings) => {
    const missing = JOB_NAMES.filter((tool) => !(`client-tools.tool.${tool}` in strings));
    expect(missing).toEqual([]);
  });
});

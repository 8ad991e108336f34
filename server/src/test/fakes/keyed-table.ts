/** A row created under an Idempotency-Key (a job or a batch), as the idempotency helpers see it. */
export interface KeyedRow {
  id: string;
  request_hash: string | null;
}

/**
 * A table with a unique index on the Idempotency-Key, in memory: a second insert under a key fails as Postgres's
 * unique violation does (code 23505), which is what the submission paths rely on when two requests race.
 */
export interface KeyedTable {
  find(key: string): Promise<KeyedRow | null>;
  insert(key: string, row: KeyedRow): Promise<KeyedRow>;
  readonly size: number;
}

export function keyedTable(): KeyedTable {
  const rows = new Map<string, KeyedRow>();
  return {
    find: async (key) => rows.get(key) ?? null,
    insert: async (key, row) => {
      if (rows.has(key))
        throw Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
      rows.set(key, row);
      return row;
    },
    get size() {
      return rows.size;
    },
  };
}

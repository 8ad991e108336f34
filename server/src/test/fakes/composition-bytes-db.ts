import type { Db } from '../../lib/db';

/**
 * The one query of the compose budget (jobs.repository's storedCompositionBytes: the bytes of a customer's kept
 * compositions) answered from a map of user id to bytes; any other use of the database fails the test.
 */
export function compositionBytesDb(bytesByUser: Map<string, number>): Db {
  const raw = async (sql: string, bindings: unknown[]) => {
    if (!/jsonb_array_elements\(j\.compositions\)/.test(sql)) throw new Error(`unexpected query: ${sql}`);
    return { rows: [{ bytes: String(bytesByUser.get(String(bindings[0])) ?? 0) }] };
  };
  return new Proxy({ raw } as object, {
    get(target, key) {
      if (key === 'raw') return raw;
      if (key === 'then') return undefined;
      throw new Error(`the database was used (.${String(key)}) beyond the compose budget's query`);
    },
  }) as Db;
}

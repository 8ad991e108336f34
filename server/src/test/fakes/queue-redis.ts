import type { RedisClient } from '@imagestudio/runtime';

/** A glob of Redis's MATCH (`*` and `?` only, which is all the services use) as a regular expression. */
function globPattern(glob: string): RegExp {
  const source = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`);
}

/**
 * The few string commands of the queue's Redis that the workers module reads heartbeats with (SCAN and MGET),
 * on a Map. `down = true` makes every command fail as a lost connection does; `calls` counts the commands run.
 */
export interface FakeQueueRedis {
  client: RedisClient;
  set(key: string, value: string): void;
  delete(key: string): void;
  down: boolean;
  calls: { scan: number; mGet: number };
}

export function fakeQueueRedis(): FakeQueueRedis {
  const data = new Map<string, string>();
  const fake: FakeQueueRedis = {
    client: undefined as unknown as RedisClient,
    set: (key, value) => void data.set(key, value),
    delete: (key) => void data.delete(key),
    down: false,
    calls: { scan: 0, mGet: 0 },
  };
  const check = () => {
    if (fake.down) throw Object.assign(new Error('The client is closed'), { code: 'ECONNREFUSED' });
  };
  const client = {
    async *scanIterator(options: { MATCH?: string; COUNT?: number }) {
      fake.calls.scan += 1;
      check();
      const match = globPattern(options.MATCH ?? '*');
      const keys = [...data.keys()].filter((k) => match.test(k));
      // SCAN answers in batches; two keys a batch makes the callers' loops over batches run.
      for (let i = 0; i < keys.length; i += 2) yield keys.slice(i, i + 2);
    },
    async mGet(keys: string[]) {
      fake.calls.mGet += 1;
      check();
      return keys.map((k) => data.get(k) ?? null);
    },
  };
  fake.client = client as unknown as RedisClient;
  return fake;
}

import { JOB_MESSAGES } from '@imagestudio/contracts';
import { AppError } from '../../lib/errors';
import { keyedTable, type KeyedRow } from '../../test/fakes';
import { checkIdempotencyKey, oncePerKey, requestFingerprint } from './idempotency';

/** Idempotency-Key rules of job submissions, on a keyed table in memory with a unique index. */

const IMAGE = Buffer.from('image bytes');
const hashOf = (params: Record<string, unknown>, content: Buffer = IMAGE) =>
  requestFingerprint('upscale', params, content);

describe('checkIdempotencyKey', () => {
  it('accepts 1-200 visible ASCII characters or no key at all', () => {
    for (const key of [undefined, 'a', 'order-42:retry/1', 'x'.repeat(200)])
      expect(() => checkIdempotencyKey(key)).not.toThrow();
  });

  it('refuses empty, long, spaced and non-ASCII keys with a 422 on the header', () => {
    for (const key of ['', 'x'.repeat(201), 'two words', 'tab\there', 'clé']) {
      let err: unknown;
      try {
        checkIdempotencyKey(key);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(AppError);
      expect(Object.keys((err as AppError).errors ?? {})).toEqual(['Idempotency-Key']);
    }
  });
});

describe('requestFingerprint', () => {
  it('changes with the tool, the options and the content, and with nothing else', () => {
    const base = hashOf({ factor: 2 });
    expect(hashOf({ factor: 2 })).toBe(base);
    expect(hashOf({ factor: 4 })).not.toBe(base);
    expect(hashOf({ factor: 2 }, Buffer.from('other bytes'))).not.toBe(base);
    expect(requestFingerprint('generate', { factor: 2 }, IMAGE)).not.toBe(base);
  });
});

describe('oncePerKey', () => {
  let ids = 0;
  /** One submission: creates a row under `key` (when given) in `table`. */
  function submit(
    table: ReturnType<typeof keyedTable>,
    key: string | undefined,
    hash: string,
    beforeInsert?: Promise<void>,
  ) {
    const req = { key, hash: key ? hash : null, find: table.find };
    return oncePerKey<KeyedRow, KeyedRow>(req, async () => {
      await beforeInsert;
      const row = { id: `job-${++ids}`, request_hash: req.hash };
      return key ? table.insert(key, row) : row;
    });
  }

  it('creates once per key and answers a repeat with the first row, creating nothing more', async () => {
    const table = keyedTable();
    const first = await submit(table, 'k1', hashOf({ factor: 2 }));
    expect(first.replayed).toBe(false);
    const again = await submit(table, 'k1', hashOf({ factor: 2 }));
    if (first.replayed) throw new Error('the first submission created nothing');
    expect(again).toEqual({ replayed: true, earlier: first.value });
    expect(table.size).toBe(1);
  });

  it('refuses the same key with another request (422), and creates every time without a key', async () => {
    const table = keyedTable();
    await submit(table, 'k1', hashOf({ factor: 2 }));
    await expect(submit(table, 'k1', hashOf({ factor: 4 }))).rejects.toThrow(JOB_MESSAGES.idempotencyMismatch);
    const a = await submit(table, undefined, hashOf({ factor: 2 }));
    const b = await submit(table, undefined, hashOf({ factor: 2 }));
    expect([a.replayed, b.replayed]).toEqual([false, false]);
  });

  it('answers the loser of a race with the row of the winner', async () => {
    const table = keyedTable();
    const createdBefore = ids;
    let release!: () => void;
    const together = new Promise<void>((resolve) => (release = resolve));
    const racing = [
      submit(table, 'k2', hashOf({ factor: 2 }), together),
      submit(table, 'k2', hashOf({ factor: 2 }), together),
    ];
    release();
    const [a, b] = await Promise.all(racing);
    // Both saw no row and both tried to create one: the unique index decided.
    expect(ids - createdBefore).toBe(2);
    if (!a || !b || a.replayed || !b.replayed)
      throw new Error(`expected the first to create: ${JSON.stringify([a, b])}`);
    expect(b.earlier).toEqual(a.value);
    expect(table.size).toBe(1);
  });

  it('turns a lost race with another request under the same key into the 422', async () => {
    const table = keyedTable();
    let release!: () => void;
    const together = new Promise<void>((resolve) => (release = resolve));
    const racing = [
      submit(table, 'k3', hashOf({ factor: 2 }), together),
      submit(table, 'k3', hashOf({ factor: 4 }), together),
    ];
    release();
    const [a, b] = await Promise.allSettled(racing);
    expect(a?.status).toBe('fulfilled');
    expect(b?.status === 'rejected' && (b.reason as AppError).status).toBe(422);
  });

  it('passes on a failure that is not a lost race', async () => {
    const boom = Object.assign(new Error('connection lost'), { code: '57P01' });
    const req = { key: 'k4', hash: 'h', find: async () => null };
    await expect(oncePerKey(req, () => Promise.reject(boom))).rejects.toBe(boom);
  });
});

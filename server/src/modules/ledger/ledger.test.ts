import { randomUUID } from 'node:crypto';
import { createTestContext, type TestContext } from '../../test/harness';
import { createUser } from '../../test/auth-helpers';
import { AppError } from '../../lib/errors';
import { applyEntry, applyEntryNow, ledgerSum, listForUser } from './ledger.service';

describe('the token ledger (applyEntry)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  const balanceOf = async (userId: string) =>
    Number((await t.ctx.db('users').where({ id: userId }).first('balance_tenths')).balance_tenths);
  const newUser = async () => (await createUser(t)).user.id;

  it('applies a replayed idempotency key once', async () => {
    const userId = await newUser();
    const key = `deposit:${randomUUID()}`;
    const first = await applyEntryNow(t.ctx.db, { userId, deltaTenths: 55, kind: 'purchase', idempotencyKey: key });
    const again = await applyEntryNow(t.ctx.db, { userId, deltaTenths: 55, kind: 'purchase', idempotencyKey: key });
    expect(first).toMatchObject({ applied: true, balanceTenths: 155 });
    expect(again).toMatchObject({ applied: false, balanceTenths: 155 });
    expect(again.entry?.id).toBe(first.entry?.id);
    expect(await balanceOf(userId)).toBe(155);
  });

  it('applies 20 concurrent replays of one key exactly once', async () => {
    const userId = await newUser();
    const key = `deposit:${randomUUID()}`;
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        applyEntryNow(t.ctx.db, { userId, deltaTenths: 10, kind: 'purchase', idempotencyKey: key }),
      ),
    );
    expect(outcomes.filter((o) => o.applied)).toHaveLength(1);
    expect(await balanceOf(userId)).toBe(110);
    expect(await ledgerSum(t.ctx.db, userId)).toBe(110);
  });

  it('never lets concurrent spends take the balance below zero', async () => {
    const userId = await newUser(); // 10 free tokens = 100 tenths
    const spends = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        applyEntryNow(t.ctx.db, {
          userId,
          deltaTenths: -7,
          kind: 'spend',
          idempotencyKey: `job:${userId}:${i}:charge`,
        }),
      ),
    );
    const ok = spends.filter((s) => s.status === 'fulfilled');
    const refused = spends.filter((s) => s.status === 'rejected') as PromiseRejectedResult[];
    expect(ok).toHaveLength(14); // 14 x 0.7 = 9.8 tokens; a 15th would need 10.5
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(AppError);
      expect((r.reason as AppError).status).toBe(402);
      expect((r.reason as AppError).code).toBe('insufficient_tokens');
    }
    expect(await balanceOf(userId)).toBe(2);
    expect(await ledgerSum(t.ctx.db, userId)).toBe(2);
  });

  it('says how much is needed and how much is available', async () => {
    const userId = await newUser();
    await expect(
      applyEntryNow(t.ctx.db, {
        userId,
        deltaTenths: -123,
        kind: 'spend',
        idempotencyKey: `job:${randomUUID()}:charge`,
      }),
    ).rejects.toMatchObject({
      status: 402,
      message: 'Not enough tokens: this needs 12.3, you have 10.',
    });
  });

  it('keeps ledger sum = balance across grants, spends, refunds and adjustments, with balance_after on each row', async () => {
    const userId = await newUser();
    const job = randomUUID();
    await applyEntryNow(t.ctx.db, { userId, deltaTenths: -30, kind: 'spend', idempotencyKey: `job:${job}:charge` });
    await applyEntryNow(t.ctx.db, { userId, deltaTenths: 30, kind: 'refund', idempotencyKey: `job:${job}:refund` });
    await applyEntryNow(t.ctx.db, {
      userId,
      deltaTenths: 1,
      kind: 'adjustment',
      idempotencyKey: `adjust:${randomUUID()}`,
      reason: 'goodwill',
    });
    const rows = (await listForUser(t.ctx.db, userId)).reverse();
    expect(rows.map((r) => [r.kind, Number(r.delta_tenths), Number(r.balance_after_tenths)])).toEqual([
      ['grant', 100, 100],
      ['spend', -30, 70],
      ['refund', 30, 100],
      ['adjustment', 1, 101],
    ]);
    expect(await ledgerSum(t.ctx.db, userId)).toBe(await balanceOf(userId));
  });

  it('clamps a reversal at zero and records the shortfall', async () => {
    const userId = await newUser();
    const out = await applyEntryNow(t.ctx.db, {
      userId,
      deltaTenths: -250,
      kind: 'reversal',
      idempotencyKey: `reversal:${randomUUID()}`,
      clampAtZero: true,
    });
    expect(out.balanceTenths).toBe(0);
    expect(Number(out.entry?.delta_tenths)).toBe(-100);
    expect(out.entry?.metadata).toMatchObject({ shortfall_tenths: 150 });
    expect(await ledgerSum(t.ctx.db, userId)).toBe(0);
  });

  it("rolls the entry back with the caller's transaction", async () => {
    const userId = await newUser();
    const key = `job:${randomUUID()}:charge`;
    await expect(
      t.ctx.db.transaction(async (trx) => {
        await applyEntry(trx, { userId, deltaTenths: -10, kind: 'spend', idempotencyKey: key });
        throw new Error('the job insert failed');
      }),
    ).rejects.toThrow('the job insert failed');
    expect(await balanceOf(userId)).toBe(100);
    expect(await t.ctx.db('token_ledger').where({ idempotency_key: key }).first()).toBeUndefined();
  });

  it('refuses non-integer or zero deltas, unknown users, and any update or delete of a ledger row', async () => {
    const userId = await newUser();
    await expect(
      applyEntryNow(t.ctx.db, { userId, deltaTenths: 0.5, kind: 'grant', idempotencyKey: `x:${randomUUID()}` }),
    ).rejects.toThrow(/integer/);
    await expect(
      applyEntryNow(t.ctx.db, { userId, deltaTenths: 0, kind: 'grant', idempotencyKey: `x:${randomUUID()}` }),
    ).rejects.toThrow(/non-zero/);
    await expect(
      applyEntryNow(t.ctx.db, {
        userId: randomUUID(),
        deltaTenths: 1,
        kind: 'grant',
        idempotencyKey: `x:${randomUUID()}`,
      }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(t.ctx.db('token_ledger').where({ user_id: userId }).update({ delta_tenths: 999 })).rejects.toThrow(
      /append-only/,
    );
    await expect(t.ctx.db('token_ledger').where({ user_id: userId }).del()).rejects.toThrow(/append-only/);
    await expect(t.ctx.db('users').where({ id: userId }).update({ balance_tenths: -1 })).rejects.toThrow(
      /users_balance_non_negative/,
    );
  });
});

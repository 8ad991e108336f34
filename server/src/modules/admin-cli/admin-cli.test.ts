import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { connectDb, ensureDatabase, type Db } from '../../lib/db';
import { createLogger } from '@imagestudio/runtime';
import { migrateLatest, runSeeds } from '../../lib/migrator';
import { createTestContext, uniqueEmail, type TestContext } from '../../test/harness';
import { TEST_DATABASE_URL } from '@imagestudio/runtime/testing';
import { ledgerSum } from '../ledger';
import { runAdminCommand } from './admin-cli';

// The CLI changes shared catalog data (settings, tiers, default currency), so it runs on a database of
// its own: tests in other files keep seeing the seeded catalog.
const ADMIN_DB_URL = `${TEST_DATABASE_URL}_admin`;
const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const run = promisify(execFile);

/** Drops and creates this file's own database, so every run starts from the seeded catalog. */
async function recreateDatabase(url: string): Promise<void> {
  const server = new URL(url);
  const name = server.pathname.slice(1);
  server.pathname = '/postgres';
  const admin = await connectDb(server.toString(), { min: 0, max: 1 });
  try {
    await admin.raw(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.destroy();
  }
  await ensureDatabase(url);
}

describe('operator CLI (npm run admin)', () => {
  let t: TestContext;
  let cliDb: Db;
  let output: string[];

  /** Runs a command in this process on a pool of its own, as another process would. */
  const admin = (...argv: string[]) => {
    output = [];
    return runAdminCommand(argv, {
      db: cliDb,
      config: { CATALOG_CACHE_CHECK_MS: 0 },
      logger: createLogger('silent', 'test'),
      operator: 'test',
      print: (l) => output.push(l),
    });
  };
  const auditCount = async () =>
    Number((await cliDb('operator_audit_log').count<{ count: string }[]>('* as count'))[0]?.count);

  beforeAll(async () => {
    await recreateDatabase(ADMIN_DB_URL);
    cliDb = await connectDb(ADMIN_DB_URL, { min: 0, max: 2 });
    await migrateLatest(cliDb);
    await runSeeds(cliDb);
    // The app checks the catalog version on every request here, so other processes' changes show at once.
    t = await createTestContext({ DATABASE_URL: ADMIN_DB_URL, CATALOG_CACHE_CHECK_MS: '0' });
  });
  afterAll(async () => {
    await t.close();
    await cliDb.destroy();
  });

  it('prints usage and changes nothing for bad arguments', async () => {
    const before = await auditCount();
    const settings = (await t.agent().get('/api/settings')).body.payload;
    expect(await admin()).toBe(2);
    expect(output.join('\n')).toMatch(/usage: npm run admin -- <command>[\s\S]*settings set <key> <value>/);
    expect(await admin('nope', 'thing')).toBe(2);
    expect(await admin('settings', 'set', 'vat_percent')).toBe(2);
    expect(output.join('\n')).toContain('usage: npm run admin -- settings set');
    expect(await admin('packs', 'add', '--title', 'X')).toBe(2);
    expect(await admin('packs', 'add', '--bogus', 'X')).toBe(2);
    expect(await admin('packs', 'hide', 'abc')).toBe(2);
    expect(await admin('tiers', 'set', '0.1=0.1')).toBe(2);
    expect(await admin('users', 'grant', 'nobody@example.test', '5', '--reason', 'x')).toBe(2);
    expect(await admin('settings', 'set', 'vat_percent', '12.345')).toBe(1);
    expect(output.join('\n')).toMatch(/refused: .*decimals/);
    expect(await admin('tiers', 'set', '0.1:0.05', '100:0.09')).toBe(1);
    expect(await auditCount()).toBe(before);
    expect((await t.agent().get('/api/settings')).body.payload).toEqual(settings);
  });

  it('sets a setting from another process; the API serves it at once with a new ETag', async () => {
    const first = await t.agent().get('/api/settings').expect(200);
    await run(
      path.join(ROOT, 'node_modules', '.bin', 'tsx'),
      ['scripts/admin.ts', 'settings', 'set', 'vat_percent', '19'],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: ADMIN_DB_URL, LOG_LEVEL: 'silent' },
      },
    );
    const second = await t.agent().get('/api/settings').set('If-None-Match', String(first.headers.etag)).expect(200);
    expect(second.body.payload.vat_percent).toBe(19);
    expect(second.headers.etag).not.toBe(first.headers.etag);
    const quote = (await t.agent().get('/api/token-pricing/quote?tokens=100&currency=EUR')).body.payload;
    expect(quote).toMatchObject({ subtotal: 9, vatPercent: 19, vat: 1.71, total: 10.71 });
    expect(await admin('settings', 'show')).toBe(0);
    expect(output).toContain('vat_percent = 19');
  });

  it('warns, without refusing, when a pack costs more than its tokens as a custom amount', async () => {
    expect(await admin('packs', 'add', '--title', 'Dear', '--price', '9.50', '--credits', '100')).toBe(0);
    const id = Number(/#(\d+)/.exec(output[0]!)![1]);
    expect(output).toContain(
      `warning: pack #${id} Dear costs 9.50 EUR, more than the same 100 tokens as a custom amount (9.00 EUR)`,
    );
    expect(await admin('packs', 'edit', String(id), '--price', '8.90')).toBe(0);
    expect(output.filter((l) => l.includes(`#${id} Dear`) && l.startsWith('warning'))).toEqual([]);
    expect(await admin('packs', 'hide', String(id))).toBe(0);
  });

  it('adds, edits, hides and orders packs', async () => {
    expect(
      await admin('packs', 'add', '--title', 'Mega', '--price', '199.99', '--credits', '4000', '--description', 'Lots'),
    ).toBe(0);
    const id = Number(/#(\d+)/.exec(output[0] ?? '')?.[1]);
    let packs = (await t.agent().get('/api/packs?currency=EUR')).body.payload as Array<{
      id: number;
      title: string;
      price: number;
      credits: number;
    }>;
    expect(packs.find((p) => p.id === id)).toEqual({
      id,
      title: 'Mega',
      description: 'Lots',
      price: 199.99,
      credits: 4000,
      saving: 0,
    });
    expect(await admin('packs', 'edit', String(id), '--price', '189.5')).toBe(0);
    expect(await admin('packs', 'order', String(id))).toBe(0);
    packs = (await t.agent().get('/api/packs?currency=EUR')).body.payload;
    expect(packs[0]).toMatchObject({ id, price: 189.5 });
    expect(await admin('packs', 'hide', String(id))).toBe(0);
    packs = (await t.agent().get('/api/packs?currency=EUR')).body.payload;
    expect(packs.some((p) => p.id === id)).toBe(false);
    expect(await admin('packs', 'edit', '999999', '--title', 'x')).toBe(1);
  });

  it('sets price tiers, currency rates and the default currency', async () => {
    expect(await admin('tiers', 'set', '0.1:0.2', '50:0.15', '1000:0.1')).toBe(0);
    const pricing = (await t.agent().get('/api/token-pricing?currency=EUR')).body.payload;
    expect(pricing.priceTiers).toEqual([
      { min: 0.1, max: 49.9, price: 0.2 },
      { min: 50, max: 999.9, price: 0.15 },
      { min: 1000, max: null, price: 0.1 },
    ]);
    expect(await admin('currency', 'set', 'usd', '1.25', '--symbol', 'US$')).toBe(0);
    expect(await admin('currency', 'default', 'USD')).toBe(0);
    const currencies = (await t.agent().get('/api/currencies')).body.payload as Array<{
      code: string;
      default: number;
      value: number;
      symbol: string;
    }>;
    expect(currencies.filter((c) => c.default === 1)).toEqual([
      { code: 'USD', value: 1.25, symbol: 'US$', default: 1 },
    ]);
    expect((await t.agent().get('/api/token-pricing')).body.payload.currency).toBe('USD');
    expect(await admin('currency', 'set', 'EUR', '2')).toBe(1);
    expect(await admin('currency', 'hide', 'USD')).toBe(1);
  });

  it('replaces a static page from a file, sanitizing its HTML', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'page-')), 'about.html');
    fs.writeFileSync(
      file,
      '<h1>About</h1><p onclick="x()">We make images.<script>alert(1)</script></p><a href="javascript:alert(1)">x</a>',
    );
    expect(await admin('page', 'set', 'about', '--file', file)).toBe(0);
    const page = (await t.agent().get('/api/static-pages/slug/about')).body.payload;
    expect(page.content).toBe('<h1>About</h1><p>We make images.</p><a>x</a>');
    expect(page.title).toBe('About Us');
    expect(await admin('page', 'set', 'about', '--file', '/no/such/file.html')).toBe(2);
  });

  it('lists users, grants and deducts tokens through the ledger, and disables a user', async () => {
    const email = uniqueEmail('admin');
    const [user] = await cliDb('users')
      .insert({ email, name: 'Ada', surname: 'Admin', password_hash: 'x' })
      .returning('id');
    const userId = (user as { id: string }).id;
    expect(await admin('users', 'list', '--search', email)).toBe(0);
    expect(output.join('\n')).toContain(email);
    expect(await admin('users', 'grant', email, '5.5', '--reason', 'support goodwill')).toBe(0);
    expect(await admin('users', 'deduct', email, '10', '--reason', 'too much')).toBe(1);
    expect(output.join('\n')).toMatch(/Not enough tokens/);
    expect(await admin('users', 'deduct', email, '2', '--reason', 'correction', '--key', `fix-${userId}`)).toBe(0);
    expect(await admin('users', 'deduct', email, '2', '--reason', 'correction', '--key', `fix-${userId}`)).toBe(0);
    expect(output[0]).toMatch(/^already applied/);
    expect(await admin('users', 'grant', email, '1')).toBe(2);
    const row = await cliDb('users').where({ id: userId }).first('balance_tenths', 'disabled_at');
    expect(Number(row.balance_tenths)).toBe(35);
    expect(await ledgerSum(cliDb, userId)).toBe(35);
    const entries = await cliDb('token_ledger').where({ user_id: userId }).orderBy('id');
    expect(entries.map((e) => [e.kind, Number(e.delta_tenths), e.reason])).toEqual([
      ['adjustment', 55, 'support goodwill'],
      ['adjustment', -20, 'correction'],
    ]);
    expect(await admin('users', 'disable', email)).toBe(0);
    expect((await cliDb('users').where({ id: userId }).first('disabled_at')).disabled_at).toBeInstanceOf(Date);
  });

  it('promotes an account to operator and demotes it again, and nothing else grants the role', async () => {
    const email = uniqueEmail('operator');
    const [user] = await cliDb('users').insert({ email, password_hash: 'x' }).returning(['id', 'role']);
    expect((user as { role: string }).role).toBe('customer');
    await expect(cliDb('users').where({ email }).update({ role: 'root' })).rejects.toThrow(/users_role_check/);
    expect(await admin('users', 'promote', email.toUpperCase())).toBe(0);
    expect(output).toEqual([`${email}: customer -> admin`]);
    expect((await cliDb('users').where({ email }).first('role')).role).toBe('admin');
    expect(await admin('users', 'promote', email)).toBe(0);
    expect(output).toEqual([`${email} is already admin`]);
    expect(await admin('users', 'demote', email)).toBe(0);
    expect((await cliDb('users').where({ email }).first('role')).role).toBe('customer');
    expect(await admin('users', 'promote', 'nobody@example.test')).toBe(2);
    const audit = await cliDb('operator_audit_log').where({ command: 'users demote' }).orderBy('id', 'desc').first();
    expect(audit.details).toMatchObject({ email, before: { role: 'admin' }, after: { role: 'customer' } });
  });

  it('logs every change in the audit log', async () => {
    expect(await admin('log', 'show', '--limit', '100')).toBe(0);
    const log = output.join('\n');
    for (const command of [
      'settings set',
      'packs add',
      'packs hide',
      'tiers set',
      'currency default',
      'page set',
      'users grant',
      'users deduct',
      'users disable',
      'users promote',
      'users demote',
    ]) {
      expect(log).toContain(command);
    }
  });
});

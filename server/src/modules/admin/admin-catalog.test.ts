import { routes, type AdminCatalogView } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { expectReplyMatchesSchema } from '../../test/reply-schema';
import { TEST_PASSWORD, csrfHeaders, verifiedUser, type VerifiedUser } from '../../test/auth-helpers';
import { createKey } from '../api-keys/api-keys.service';
import * as pricingRepo from '../catalog/pricing.repository';

let t: TestContext;
let admin: VerifiedUser;
let customer: VerifiedUser;
let tiersBefore: pricingRepo.TierRow[];
let chfBefore: { value: string; symbol: string };

beforeAll(async () => {
  t = await createTestContext();
  admin = await verifiedUser(t);
  await t.ctx.db('users').where({ id: admin.user.id }).update({ role: 'admin' });
  customer = await verifiedUser(t);
  tiersBefore = await pricingRepo.listTiers(t.ctx.db);
  chfBefore = await t.ctx.db('currencies').where({ code: 'CHF' }).first('value', 'symbol');
});
afterAll(async () => {
  // The test database is shared by the other test files: put back what these tests changed.
  await pricingRepo.replaceTiers(t.ctx.db, tiersBefore);
  await t.ctx.db('packs').where({ title: 'Console pack' }).del();
  await t.ctx.db('static_pages').where({ slug: 'console-test' }).del();
  await t.ctx.db('currencies').where({ code: 'CHF' }).update({ value: chfBefore.value, symbol: chfBefore.symbol });
  await t.close();
});

const confirm = () => admin.agent.post('/api/admin/confirm-password').send({ password: TEST_PASSWORD }).expect(200);
const auditRows = (command: string) =>
  t.ctx.db('operator_audit_log').where({ actor_id: admin.user.id, command }).orderBy('id', 'desc');

describe('catalog routes: the guard', () => {
  it('guests 401, customers 404, API keys refused, changes need the XSRF header and a fresh password', async () => {
    const guest = t.agent();
    const guestHeaders = await csrfHeaders(guest);
    expect((await guest.get('/api/admin/catalog')).status).toBe(401);
    expect((await guest.put('/api/admin/catalog/tiers').set(guestHeaders).send({})).status).toBe(401);
    const asCustomer = await customer.agent.get('/api/admin/catalog');
    expect([asCustomer.status, asCustomer.body.code]).toEqual([404, 'not_found']);
    expect((await customer.agent.post('/api/admin/catalog/packs').send({})).status).toBe(404);
    const { key } = await createKey(t.ctx, admin.user.id, { name: 'catalog key' } as never);
    const withKey = await t.agent().get('/api/admin/catalog').set('Authorization', `Bearer ${key}`);
    expect([withKey.status, withKey.body.code]).toEqual([403, 'forbidden']);

    // A fresh operator session: reading is open, changing asks for the password first.
    const op = await verifiedUser(t);
    await t.ctx.db('users').where({ id: op.user.id }).update({ role: 'admin' });
    const reply = (await op.agent.get('/api/admin/catalog').expect(200)).body;
    expectReplyMatchesSchema(routes.admin.catalog, reply);
    const catalog = reply.payload as AdminCatalogView;
    expect(catalog.packs.length).toBeGreaterThan(0);
    expect(catalog.tiers[0]).toMatchObject({ min: 0.1 });
    expect(catalog.currencies.some((c) => c.code === 'EUR' && c.rate.startsWith('1'))).toBe(true);
    expect(catalog.settings).toHaveProperty('vat_percent');
    const refused = await op.agent.put('/api/admin/catalog/settings/vat_percent').send({ value: 19 });
    expect([refused.status, refused.body.code]).toEqual([403, 'reauth_required']);
    expect(await auditRows('catalog.settings.set').where({ actor_id: op.user.id })).toHaveLength(0);
  });
});

describe('catalog routes: changes', () => {
  beforeAll(confirm);

  it('adds and edits a pack with the CLI validation, warns when a pack costs more than custom tokens, audits both', async () => {
    const bad = await admin.agent
      .post('/api/admin/catalog/packs')
      .send({ title: 'Odd', price: '1.234', credits: '10' });
    expect([bad.status, bad.body.code, bad.body.errors]).toEqual([
      422,
      'validation_failed',
      { price: ['Price must be an amount in EUR with at most 2 decimals'] },
    ]);
    // In German when the request asks for it (the messages are in strings/server.json).
    const german = await admin.agent
      .post('/api/admin/catalog/packs')
      .send({ title: 'Odd', price: '1.234', credits: '10', lang_id: 'de' });
    expect(german.body.errors).toEqual({
      price: ['Der Preis muss ein Betrag in EUR mit höchstens 2 Nachkommastellen sein'],
    });
    const noCredits = await admin.agent
      .post('/api/admin/catalog/packs')
      .send({ title: 'Odd', price: '1.00', credits: '0.05' });
    expect(noCredits.body.errors).toEqual({ credits: ['Credits must be a positive multiple of 0.1'] });

    // 10 tokens at the seeded 0.10 EUR per token cost 1.00 as a custom amount: 5.00 is dearer.
    const added = await admin.agent
      .post('/api/admin/catalog/packs')
      .send({ title: 'Console pack', price: '5.00', credits: '10', description: 'from the console' })
      .expect(201);
    expectReplyMatchesSchema(routes.admin.catalogAddPack, added.body);
    const catalog = added.body.payload as AdminCatalogView;
    const pack = catalog.packs.find((p) => p.title === 'Console pack')!;
    expect(pack).toMatchObject({ price: '5.00', credits: 10, hidden: false, description: 'from the console' });
    expect(
      catalog.warnings.some((w) => w.includes(`pack #${pack.id} Console pack`) && w.includes('custom amount')),
    ).toBe(true);
    const [addRow] = await auditRows('catalog.packs.add');
    expect(addRow).toMatchObject({ operator: admin.email, target: `pack:${pack.id}` });
    expect(addRow.details.after).toMatchObject({ title: 'Console pack', price: '5.00' });
    expect(addRow.ip).toBeTruthy();

    // Cheaper and hidden: the warning goes, and the audit keeps before and after.
    const edited = (
      await admin.agent.patch(`/api/admin/catalog/packs/${pack.id}`).send({ price: '0.90', hidden: true }).expect(200)
    ).body.payload as AdminCatalogView;
    expect(edited.packs.find((p) => p.id === pack.id)).toMatchObject({ price: '0.90', hidden: true });
    expect(edited.warnings.some((w) => w.includes(`pack #${pack.id} `))).toBe(false);
    const [editRow] = await auditRows('catalog.packs.edit');
    expect(editRow.details).toMatchObject({
      before: { price: '5.00', hidden: false },
      after: { price: '0.90', hidden: true },
    });

    expect((await admin.agent.patch(`/api/admin/catalog/packs/${pack.id}`).send({})).body.errors).toEqual({
      _: ['Nothing to change'],
    });
    expect((await admin.agent.patch('/api/admin/catalog/packs/99999999').send({ title: 'x' })).status).toBe(404);
    expect((await admin.agent.patch('/api/admin/catalog/packs/abc').send({ title: 'x' })).status).toBe(422);
  });

  it('sets tiers from their starts and refuses a table whose prices do not fall', async () => {
    const refused = await admin.agent.put('/api/admin/catalog/tiers').send({
      tiers: [
        { min: 0.1, price: '0.10' },
        { min: 100, price: '0.12' },
      ],
    });
    expect([refused.status, refused.body.errors]).toEqual([
      422,
      { tiers: ['tier 2 must be cheaper per token than tier 1'] },
    ]);
    const set = await admin.agent
      .put('/api/admin/catalog/tiers')
      .send({
        tiers: [
          { min: 0.1, price: '0.10' },
          { min: 200, price: '0.085' },
        ],
      })
      .expect(200);
    expectReplyMatchesSchema(routes.admin.catalogTiers, set.body);
    expect((set.body.payload as AdminCatalogView).tiers).toEqual([
      { min: 0.1, max: 199.9, price: '0.100000' },
      { min: 200, max: null, price: '0.085000' },
    ]);
    const [row] = await auditRows('catalog.tiers.set');
    expect(row.details.after.tiers).toHaveLength(2);
    expect(row.details.before.tiers.length).toBeGreaterThan(0);
  });

  it('validates settings with the settings schema and audits the value before and after', async () => {
    const bad = await admin.agent.put('/api/admin/catalog/settings/support_email').send({ value: 'not an email' });
    expect([bad.status, Object.keys(bad.body.errors)]).toEqual([422, ['support_email']]);
    const unknown = await admin.agent.put('/api/admin/catalog/settings/nope').send({ value: 1 });
    expect(unknown.body.errors).toEqual({ key: ['Unknown setting "nope"'] });
    const before = (await admin.agent.get('/api/admin/catalog')).body.payload.settings.support_email;
    const ok = await admin.agent.put('/api/admin/catalog/settings/support_email').send({ value: 'help@example.com' });
    expect(ok.body.payload.settings.support_email).toBe('help@example.com');
    const [row] = await auditRows('catalog.settings.set');
    expect(row).toMatchObject({ target: 'setting:support_email' });
    expect(row.details).toEqual({ before: { value: before }, after: { value: 'help@example.com' } });
    await admin.agent.put('/api/admin/catalog/settings/support_email').send({ value: before }).expect(200);
  });

  it('sets a currency rate, refuses a bad code, and saves a sanitized page', async () => {
    expect((await admin.agent.put('/api/admin/catalog/currencies/EURO').send({ rate: '1' })).body.errors).toEqual({
      code: ['Currency code must be 3 letters'],
    });
    expect((await admin.agent.put('/api/admin/catalog/currencies/EUR').send({ rate: '2' })).body.errors).toEqual({
      rate: ['EUR is the base currency: its rate is 1'],
    });
    const set = await admin.agent
      .put('/api/admin/catalog/currencies/chf')
      .send({ rate: '0.93', symbol: 'Fr.' })
      .expect(200);
    expectReplyMatchesSchema(routes.admin.catalogCurrency, set.body);
    expect((set.body.payload as AdminCatalogView).currencies.find((c) => c.code === 'CHF')).toMatchObject({
      rate: '0.93000000',
      symbol: 'Fr.',
    });
    expect((await auditRows('catalog.currency.set'))[0]).toMatchObject({ target: 'currency:CHF' });

    const page = await admin.agent
      .put('/api/admin/catalog/pages/console-test')
      .send({ title: 'Console test', html: '<p>Hello</p><script>alert(1)</script>' })
      .expect(200);
    expectReplyMatchesSchema(routes.admin.catalogPage, page.body);
    const saved = (page.body.payload as AdminCatalogView).pages.find((p) => p.slug === 'console-test')!;
    expect(saved.html).toContain('<p>Hello</p>');
    expect(saved.html).not.toContain('script');
    expect((await admin.agent.put('/api/admin/catalog/pages/Bad_Slug').send({ html: '<p>x</p>' })).body.errors).toEqual(
      { slug: ['Slug must be lower-case words joined by dashes'] },
    );
    expect((await auditRows('catalog.pages.set'))[0]).toMatchObject({ target: 'page:console-test' });
  });
});

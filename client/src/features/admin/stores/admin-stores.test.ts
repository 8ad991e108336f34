import {
  defaultSettings,
  endpoints,
  type AdminCatalogView,
  type AdminJobSummary,
  type AdminOverview,
  type AdminUserDetail,
} from '@imagestudio/contracts';
import { profileFixture } from '../../../test/fixtures';
import { errorReply, FakeApi, makeStore, okPayload, withCatalog, type ReplyOf } from '../../../test/fake-api';
import { adminStoreFor } from './admin-store';

const { admin: routes } = endpoints;
const reauthRequired = errorReply('reauth_required', 'Please confirm your password to continue.');

async function signedIn(api: FakeApi, role?: 'admin') {
  withCatalog(api)
    .route(endpoints.account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(endpoints.account.profile, okPayload(profileFixture(role ? { role } : {})));
  const { store } = makeStore(api);
  await store.auth.checkAuth();
  await store.profile.fetch();
  return { root: store, admin: adminStoreFor(store) };
}

const userDetail = (balance: number): AdminUserDetail => ({
  id: 'u1',
  email: 'c@example.com',
  name: 'C',
  surname: 'D',
  role: 'customer',
  balance,
  email_verified: true,
  disabled: false,
  created_at: '2026-11-01T00:00:00.000Z',
  phone: '',
  country_id: null,
  city: '',
  address: '',
  post_code: '',
  ledger_sum: balance,
  ledger: [],
  deposits: [],
  jobs: [],
  api_keys: [],
  sessions: { epoch: 0 },
});

const jobSummary = (id: string): AdminJobSummary => ({
  id,
  user_id: 'u1',
  user_email: 'ada@example.com',
  tool: 'upscale',
  status: 'failed',
  cost: 1,
  refunded: true,
  created_at: '2026-11-24T10:00:00.000Z',
  finished_at: '2026-11-24T10:00:05.000Z',
  batch_id: null,
});

/** Waits until the promise's microtasks have run (the store awaits the API). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('who sees the console', () => {
  it('an operator is whoever the profile says is an admin; a customer profile has no role', async () => {
    expect((await signedIn(new FakeApi(), 'admin')).admin.isOperator).toBe(true);
    expect((await signedIn(new FakeApi())).admin.isOperator).toBe(false);
  });
});

describe('the password confirmation (ReauthStore)', () => {
  it('asks for the password on reauth_required, then sends the change once more', async () => {
    const api = new FakeApi();
    const { admin } = await signedIn(api, 'admin');
    let confirmed = false;
    let adjustCalls = 0;
    api
      .route(routes.user, okPayload(userDetail(10)), { id: 'u1' })
      .route(
        routes.adjustBalance,
        () => {
          adjustCalls += 1;
          return confirmed ? okPayload({ applied: true, before: 10, balance: 15, entry: null }) : reauthRequired;
        },
        { id: 'u1' },
      )
      .route(routes.confirmPassword, (req) => {
        if ((req.data as { password: string }).password !== 'right') {
          return errorReply('validation_failed', 'x', { password: ['The password is not correct.'] });
        }
        confirmed = true;
        return okPayload({ confirmed_until: '2026-11-25T18:00:00.000Z' });
      });
    await admin.user.load('u1');
    admin.user.startAdjustment();
    const outcome = admin.user.adjust(5, 'goodwill for a bad cut-out');
    await settle();
    expect(admin.reauth.open).toBe(true);
    expect(adjustCalls).toBe(1);

    await admin.reauth.confirm('wrong');
    expect(admin.reauth.open).toBe(true);
    expect(admin.reauth.error).toBe('The password is not correct.');
    expect(adjustCalls).toBe(1);

    await admin.reauth.confirm('right');
    expect(await outcome).toEqual({ ok: true, message: null, fieldErrors: {} });
    expect(admin.reauth.open).toBe(false);
    expect(adjustCalls).toBe(2);
    // Both sends of the one adjustment carry the same Idempotency-Key: a repeat can never grant twice.
    const keys = api.calls(routes.adjustBalance, { id: 'u1' }).map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^console:/);
    expect(keys[1]).toBe(keys[0]);
    expect(api.last(routes.adjustBalance, { id: 'u1' })?.data).toMatchObject({
      tokens: 5,
      reason: 'goodwill for a bad cut-out',
    });
    // The next adjustment is a new one.
    await admin.user.adjust(1, 'another reason');
    expect(api.last(routes.adjustBalance, { id: 'u1' })?.headers['idempotency-key']).not.toBe(keys[0]);
  });

  it('closing the dialog gives the change up: it is not sent again and the page gets the refusal', async () => {
    const api = new FakeApi();
    const { admin } = await signedIn(api, 'admin');
    api
      .route(routes.user, okPayload(userDetail(10)), { id: 'u1' })
      .route(routes.signOutUser, reauthRequired, { id: 'u1' });
    await admin.user.load('u1');
    const outcome = admin.user.signOutEverywhere();
    await settle();
    admin.reauth.cancel();
    expect(await outcome).toMatchObject({ ok: false, message: 'Please confirm your password to continue.' });
    expect(api.calls(routes.signOutUser, { id: 'u1' })).toHaveLength(1);
    expect(api.calls(routes.confirmPassword)).toHaveLength(0);
  });

  it('a refusal other than reauth_required reaches the form with its field errors, no dialog', async () => {
    const api = new FakeApi();
    const { admin } = await signedIn(api, 'admin');
    api
      .route(routes.user, okPayload(userDetail(1)), { id: 'u1' })
      .route(
        routes.adjustBalance,
        errorReply('validation_failed', 'x', { tokens: ['A deduction cannot take the balance below zero.'] }),
        { id: 'u1' },
      );
    await admin.user.load('u1');
    expect(await admin.user.adjust(-5, 'taking back')).toEqual({
      ok: false,
      message: 'x',
      fieldErrors: { tokens: 'A deduction cannot take the balance below zero.' },
    });
    expect(admin.reauth.open).toBe(false);
  });
});

describe('console lists (AdminListStore)', () => {
  it('sends the filled-in filters only, starts a search at page 1 and pages on', async () => {
    const api = new FakeApi();
    const { admin } = await signedIn(api, 'admin');
    api.route(routes.jobs, (req) =>
      okPayload({
        items: [jobSummary(`job-${String(req.params.page)}`)],
        page: Number(req.params.page),
        per_page: 50,
        total: 120,
        last_page: 3,
      }),
    );
    admin.jobs.setFilter('user', ' ada@example.com ');
    admin.jobs.setFilter('status', 'failed');
    await admin.jobs.search();
    expect(api.last(routes.jobs)?.params).toMatchObject({ page: 1, user: 'ada@example.com', status: 'failed' });
    expect(api.last(routes.jobs)?.params).not.toHaveProperty('tool');
    expect(api.last(routes.jobs)?.params).not.toHaveProperty('from');
    expect([admin.jobs.page, admin.jobs.lastPage, admin.jobs.total]).toEqual([1, 3, 120]);
    await admin.jobs.load(2);
    expect(admin.jobs.items.map((job) => job.id)).toEqual(['job-2']);
    admin.jobs.setFilter('status', '');
    await admin.jobs.search();
    expect(api.last(routes.jobs)?.params).not.toHaveProperty('status');
    expect(admin.jobs.page).toBe(1);
  });

  it('says so when a list cannot be loaded', async () => {
    const api = new FakeApi();
    const { admin } = await signedIn(api, 'admin');
    api.route(routes.audit, errorReply('internal_error', 'boom'));
    await admin.audit.search();
    expect(admin.audit.error).toBe('The audit log could not be loaded. Please try again.');
  });
});

describe('the overview (OverviewStore)', () => {
  afterEach(() => jest.useRealTimers());

  it('reloads every 10 seconds while watched, keeps the last figures when a reload fails, stops when left', async () => {
    const api = new FakeApi();
    const { admin } = await signedIn(api, 'admin');
    const overview = (at: string): AdminOverview => ({
      queues: [],
      workers: [
        { id: 'b', host: 'h2', state: 'lost' } as AdminOverview['workers'][number],
        { id: 'a', host: 'h1', state: 'live' } as AdminOverview['workers'][number],
      ],
      jobs_per_hour: [],
      deposits_per_day: [],
      generated_at: at,
    });
    let reply: ReplyOf<typeof routes.overview> = okPayload(overview('t1'));
    api.route(routes.overview, () => reply);
    jest.useFakeTimers();
    const stop = admin.overview.watch();
    await jest.advanceTimersByTimeAsync(0);
    expect(admin.overview.data?.generated_at).toBe('t1');
    expect(admin.overview.workers.map((w) => w.state)).toEqual(['live', 'lost']);
    reply = okPayload(overview('t2'));
    await jest.advanceTimersByTimeAsync(10_000);
    expect(admin.overview.data?.generated_at).toBe('t2');
    reply = errorReply('service_unavailable', 'Redis is down.');
    await jest.advanceTimersByTimeAsync(10_000);
    expect(admin.overview.data?.generated_at).toBe('t2');
    expect(admin.overview.error).toMatch(/could not be loaded/);
    stop();
    const calls = api.calls(routes.overview).length;
    await jest.advanceTimersByTimeAsync(30_000);
    expect(api.calls(routes.overview)).toHaveLength(calls);
  });
});

describe('the catalog (CatalogStore)', () => {
  const view = (warnings: string[] = []): AdminCatalogView => ({
    settings: { ...defaultSettings(), vat_percent: 0, support_email: 'a@b.c' },
    packs: [
      { id: 1, title: 'A', description: '', price: '1.00', credits: 10, position: 1, hidden: false },
      { id: 2, title: 'B', description: '', price: '5.00', credits: 60, position: 2, hidden: false },
      { id: 3, title: 'C', description: '', price: '9.00', credits: 120, position: 3, hidden: false },
    ],
    tiers: [{ min: 0.1, max: null, price: '0.10' }],
    currencies: [],
    pages: [],
    warnings,
  });

  it('reads setting values as the CLI does, sends tiers and pack order, and shows the warnings it answers', async () => {
    const api = new FakeApi();
    const { admin } = await signedIn(api, 'admin');
    api
      .route(routes.catalog, okPayload(view()))
      .route(routes.catalogSetting, okPayload(view()), { key: 'vat_percent' })
      .route(routes.catalogSetting, okPayload(view()), { key: 'support_email' })
      .route(routes.catalogTiers, okPayload(view()))
      .route(routes.catalogOrderPacks, okPayload(view()))
      .route(routes.catalogAddPack, okPayload(view(['pack #4 D costs more']), 201));
    await admin.catalog.load();
    await admin.catalog.setSetting('vat_percent', '19.5');
    expect(api.last(routes.catalogSetting, { key: 'vat_percent' })?.data).toMatchObject({ value: 19.5 });
    await admin.catalog.setSetting('support_email', 'help@example.com');
    expect(api.last(routes.catalogSetting, { key: 'support_email' })?.data).toMatchObject({
      value: 'help@example.com',
    });
    await admin.catalog.setTiers([
      { min: '0.1', price: '0.10 ' },
      { min: '100', price: '0.09' },
    ]);
    expect(api.last(routes.catalogTiers)?.data).toMatchObject({
      tiers: [
        { min: 0.1, price: '0.10' },
        { min: 100, price: '0.09' },
      ],
    });
    await admin.catalog.movePack(2, -1);
    expect(api.last(routes.catalogOrderPacks)?.data).toMatchObject({ ids: [2, 1, 3] });
    const added = await admin.catalog.addPack({ title: 'D', price: '50', credits: '10', description: '' });
    expect(added.ok).toBe(true);
    expect(admin.catalog.warnings).toEqual(['pack #4 D costs more']);
  });

  it('a refused change keeps the catalog and returns the field errors', async () => {
    const api = new FakeApi();
    const { admin } = await signedIn(api, 'admin');
    api
      .route(routes.catalog, okPayload(view()))
      .route(
        routes.catalogEditPack,
        errorReply('validation_failed', 'x', { price: ['Price must be an amount in EUR with at most 2 decimals'] }),
        { id: '1' },
      );
    await admin.catalog.load();
    const outcome = await admin.catalog.editPack(1, { price: '1.234' });
    expect(outcome.fieldErrors).toEqual({ price: 'Price must be an amount in EUR with at most 2 decimals' });
    expect(admin.catalog.catalog?.packs[0]?.price).toBe('1.00');
  });
});

import { profileFixture } from '../test/fixtures';
import { FakeApi, makeStore, withCatalog } from '../test/fake-api';

beforeEach(() => localStorage.clear());

async function signedIn(api: FakeApi) {
  withCatalog(api)
    .on('GET /is-auth', { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .on('GET /user/profile', {
      status: 200,
      data: { status: 'OK', payload: profileFixture({ city: 'Berlin', balance: 10 }) },
    });
  const { store } = makeStore(api);
  await store.auth.checkAuth();
  return store;
}

describe('account writes', () => {
  it('saving the profile re-fetches it; server errors come back per field (first message)', async () => {
    const api = new FakeApi();
    const store = await signedIn(api);
    api.on('PUT /user/profile', { status: 200, data: { status: 'OK', payload: {} } });
    const before = api.seen.filter((r) => r.url === '/user/profile' && r.method === 'GET').length;
    const fields = {
      name: 'Ada',
      surname: 'King',
      phone: '+49 301234567',
      phoneE164: '+49301234567',
      country_id: 1,
      city: 'Hamburg',
      address: '',
      post_code: '',
    };
    expect(await store.account.saveProfile(fields)).toEqual({ ok: true, fieldErrors: {}, message: null });
    expect(api.last('PUT /user/profile')?.data).toMatchObject(fields);
    expect(api.seen.filter((r) => r.url === '/user/profile' && r.method === 'GET').length).toBe(before + 1);

    api.on('PUT /user/profile', {
      status: 422,
      data: {
        status: 'ERROR',
        code: 'validation_failed',
        message: 'x',
        errors: {
          phone: ['Please enter a valid phone number', 'more'],
          country_id: ['The selected country is invalid.'],
        },
      },
    });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await store.account.saveProfile(fields)).toEqual({
      ok: false,
      fieldErrors: { phone: 'Please enter a valid phone number', country_id: 'The selected country is invalid.' },
      message: null,
    });
    warn.mockRestore();
  });

  it('change password returns the server message, field errors, or "Failed to update password"', async () => {
    const api = new FakeApi();
    const store = await signedIn(api);
    const input = { current_password: 'Secret12', password: 'Newpass34', password_confirmation: 'Newpass34' };
    api.on('POST /user/change-password', {
      status: 200,
      data: { status: 'OK', message: 'Password updated successfully' },
    });
    expect(await store.account.changePassword(input)).toEqual({
      ok: true,
      fieldErrors: {},
      message: 'Password updated successfully',
    });

    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    api.on('POST /user/change-password', {
      status: 422,
      data: {
        status: 'ERROR',
        code: 'validation_failed',
        message: 'x',
        errors: { current_password: ['The current password is incorrect.'] },
      },
    });
    expect(await store.account.changePassword(input)).toMatchObject({
      ok: false,
      fieldErrors: { current_password: 'The current password is incorrect.' },
    });
    warn.mockRestore();

    api.on('POST /user/change-password', 'network');
    expect(await store.account.changePassword(input)).toEqual({
      ok: false,
      fieldErrors: {},
      message: 'Failed to update password',
    });
  });

  it('a guest changes nothing', async () => {
    const api = withCatalog(new FakeApi());
    const { store } = makeStore(api);
    expect(
      (await store.account.changePassword({ current_password: 'a', password: 'b', password_confirmation: 'b' })).ok,
    ).toBe(false);
    expect(api.last('POST /user/change-password')).toBeUndefined();
  });
});

describe('payment history', () => {
  const page = (n: number) => ({
    items: [
      {
        id: `d${n}`,
        date: '2026-01-05T10:00:00Z',
        status: 'Success',
        pack: null,
        tokens: 50,
        amount: 5,
        currency: 'EUR',
        method: 'Credit/Debit card',
        has_receipt: true,
      },
    ],
    page: n,
    per_page: 20,
    total: 21,
    last_page: 2,
  });

  it('loads a page, keeps the paging, builds receipt links, and forgets everything on sign-out', async () => {
    const api = new FakeApi();
    const store = await signedIn(api);
    api.on('GET /user/payment-history', (req) => ({
      status: 200,
      data: { status: 'OK', payload: page(Number(req.params.page)) },
    }));
    await store.paymentHistory.load(2);
    expect(api.last('GET /user/payment-history')?.params).toMatchObject({ page: 2 });
    expect(store.paymentHistory).toMatchObject({ page: 2, lastPage: 2, total: 21 });
    expect(store.paymentHistory.items[0]!.id).toBe('d2');

    api.on('POST /logout', { status: 200, data: { status: 'OK' } });
    await store.auth.logout();
    expect(store.paymentHistory.items).toEqual([]);
  });

  it('says "Failed to load payment history" when the call fails', async () => {
    const api = new FakeApi();
    const store = await signedIn(api);
    api.on('GET /user/payment-history', { status: 500, data: {} });
    await store.paymentHistory.load();
    expect(store.paymentHistory.error).toBe('Failed to load payment history');
  });
});

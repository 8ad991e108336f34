import { endpoints, type PaymentHistoryPage } from '@imagestudio/contracts';
import { profileFixture } from '../../../test/fixtures';
import { errorReply, FakeApi, makeStore, okPayload, withCatalog } from '../../../test/fake-api';

const { account, payments } = endpoints;

beforeEach(() => localStorage.clear());

async function signedIn(api: FakeApi) {
  withCatalog(api)
    .route(account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(account.profile, okPayload(profileFixture({ city: 'Berlin', balance: 10 })));
  const { store } = makeStore(api);
  await store.auth.checkAuth();
  return store;
}

describe('account writes', () => {
  it('saving the profile re-fetches it; server errors come back per field (first message)', async () => {
    const api = new FakeApi();
    const store = await signedIn(api);
    api.route(account.updateProfile, okPayload(profileFixture({ city: 'Hamburg', balance: 10 })));
    const before = api.calls(account.profile).length;
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
    expect(api.last(account.updateProfile)?.data).toMatchObject(fields);
    expect(api.calls(account.profile)).toHaveLength(before + 1);

    api.route(
      account.updateProfile,
      errorReply('validation_failed', 'x', {
        phone: ['Please enter a valid phone number', 'more'],
        country_id: ['The selected country is invalid.'],
      }),
    );
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
    api.route(account.changePassword, {
      status: 200,
      data: { status: 'OK', message: 'Password updated successfully' },
    });
    expect(await store.account.changePassword(input)).toEqual({
      ok: true,
      fieldErrors: {},
      message: 'Password updated successfully',
    });

    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    api.route(
      account.changePassword,
      errorReply('validation_failed', 'x', { current_password: ['The current password is incorrect.'] }),
    );
    expect(await store.account.changePassword(input)).toMatchObject({
      ok: false,
      fieldErrors: { current_password: 'The current password is incorrect.' },
    });
    warn.mockRestore();

    api.route(account.changePassword, 'network');
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
    expect(api.last(account.changePassword)).toBeUndefined();
  });
});

describe('payment history', () => {
  const page = (n: number): PaymentHistoryPage => ({
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
    api.route(payments.history, (req) => okPayload(page(Number(req.params.page))));
    await store.paymentHistory.load(2);
    expect(api.last(payments.history)?.params).toMatchObject({ page: 2 });
    expect(store.paymentHistory).toMatchObject({ page: 2, lastPage: 2, total: 21 });
    expect(store.paymentHistory.items[0]!.id).toBe('d2');

    api.route(account.logout, { status: 200, data: { status: 'OK' } });
    await store.auth.logout();
    expect(store.paymentHistory.items).toEqual([]);
  });

  it('says "Failed to load payment history" when the call fails', async () => {
    const api = new FakeApi();
    const store = await signedIn(api);
    api.route(payments.history, errorReply('internal_error'));
    await store.paymentHistory.load();
    expect(store.paymentHistory.error).toBe('Failed to load payment history');
  });
});

import { endpoints } from '@imagestudio/contracts';
import { profileFixture, settingsFixture } from '../../../test/fixtures';
import {
  errorReply,
  FakeApi,
  makeStore,
  okPayload,
  withCatalog,
  type ReplyOf,
  type SeenRequest,
} from '../../../test/fake-api';

beforeEach(() => localStorage.clear());
afterEach(() => jest.restoreAllMocks());

const PROFILE = profileFixture({
  id: 'u1',
  phone: '+49 301234567',
  country: { id: 1, name: 'Germany', iso: 'DE' },
  city: 'Berlin',
  address: 'Main 1',
  post_code: '10117',
  balance: 10,
});

type CheckoutReply = ReplyOf<typeof endpoints.payments.checkout>;

/** A signed-in store whose checkout is answered by `checkout`. */
async function signedInStore(checkout: (req: SeenRequest) => CheckoutReply) {
  const { account, catalog } = endpoints;
  const api = withCatalog(new FakeApi())
    .route(account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(account.profile, okPayload(PROFILE))
    .route(
      catalog.settings,
      okPayload(
        settingsFixture({
          vat_percent: 0,
          min_top_up: 1,
          payment_methods: [{ id: 7, title: 'Credit/Debit card', code: 'card' }],
        }),
      ),
    )
    .route(catalog.tokenPricing, okPayload({ currency: 'EUR', priceTiers: [{ min: 0.1, max: null, price: 0.1 }] }))
    .route(endpoints.payments.checkout, checkout);
  const { store } = makeStore(api);
  await store.currencies.load();
  await store.auth.checkAuth();
  await store.packs.load();
  const visits: string[] = [];
  store.checkout.navigateAway = (url) => visits.push(url);
  return { store, api, visits };
}

const okReply = (): CheckoutReply => ({
  status: 200,
  data: {
    status: 'OK',
    redirect_url: 'http://app.test/api/deposit/test-checkout?order=dep-9&token=abc',
    payload: { deposit_id: 'dep-9' },
  },
});

describe('Confirm Information (checkout)', () => {
  it('opening loads what is missing, selects the first payment method and fills the form from the profile', async () => {
    const { store, api } = await signedInStore(okReply);
    store.profile.clear();
    await store.checkout.prepare();
    expect(api.last(endpoints.catalog.countries)).toBeDefined();
    expect(api.last(endpoints.catalog.settings)).toBeDefined();
    expect(store.checkout.paymentMethodId).toBe(7);
    expect(store.checkout.generalError).toBeNull();
    expect(store.checkout.form).toEqual({
      name: 'Ada',
      surname: 'Lovelace',
      email: 'ada@example.test',
      phone: '+49 301234567',
      country: '1',
      city: 'Berlin',
      address: 'Main 1',
      postCode: '10117',
    });
    expect(store.checkout.phoneCountry).toBe('DE');
  });

  it('says "Failed to load necessary data for checkout." when the countries cannot be loaded', async () => {
    const { store, api } = await signedInStore(okReply);
    api.route(endpoints.catalog.countries, errorReply('internal_error'));
    await store.checkout.prepare();
    expect(store.checkout.generalError).toBe('Failed to load necessary data for checkout.');
  });

  it('posts the billing fields, the choice and the currency, then goes to redirect_url and clears the form', async () => {
    const { store, api, visits } = await signedInStore(okReply);
    await store.checkout.prepare();
    store.topUp.selectTokens(25.5);
    store.checkout.setSaveInfo(true);
    expect(await store.checkout.submit()).toBe(true);
    expect(api.last(endpoints.payments.checkout)?.data).toMatchObject({
      name: 'Ada',
      surname: 'Lovelace',
      email: 'ada@example.test',
      phone: '+49 301234567',
      country: 1,
      city: 'Berlin',
      address: 'Main 1',
      postCode: '10117',
      save_info: true,
      payment_method_id: 7,
      currency: 'EUR',
      tokens: 25.5,
    });
    expect(api.last(endpoints.payments.checkout)?.data).not.toHaveProperty('pack_id');
    expect(visits).toEqual(['http://app.test/api/deposit/test-checkout?order=dep-9&token=abc']);
    expect(store.topUp.depositId).toBe('dep-9');
    expect(store.checkout.form.name).toBe('');
  });

  it('a pack wins over tokens in the request', async () => {
    const { store, api } = await signedInStore(okReply);
    await store.checkout.prepare();
    store.topUp.selectTokens(10);
    store.topUp.selectPack(2);
    await store.checkout.submit();
    expect(api.last(endpoints.payments.checkout)?.data).toMatchObject({ pack_id: 2 });
    expect(api.last(endpoints.payments.checkout)?.data).not.toHaveProperty('tokens');
  });

  it('client checks stop the request and mark each field', async () => {
    const { store, api } = await signedInStore(okReply);
    await store.checkout.prepare();
    store.topUp.selectTokens(10);
    store.checkout.setField('city', ' ');
    store.checkout.setField('phone', 'abc');
    expect(await store.checkout.submit()).toBe(false);
    expect(store.checkout.fieldErrors).toEqual({
      phone: 'Invalid phone format (e.g. +1234567890)',
      city: 'City is required',
    });
    expect(api.last(endpoints.payments.checkout)).toBeUndefined();
  });

  it('shows the first server message per field, and other fields in the banner', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined); // the catalogue logs 422s
    const { store } = await signedInStore(() => ({
      status: 422,
      data: {
        status: 'ERROR',
        code: 'validation_failed',
        message: 'The given data was invalid.',
        errors: { postCode: ['Postal code is required', 'second'], amount: ['Minimum top-up amount: €1.00'] },
      },
    }));
    await store.checkout.prepare();
    store.topUp.selectTokens(1);
    expect(await store.checkout.submit()).toBe(false);
    expect(store.checkout.fieldErrors).toEqual({ postCode: 'Postal code is required' });
    expect(store.checkout.generalError).toBe('Minimum top-up amount: €1.00');
  });

  it('falls back to "Checkout failed", and to "No redirect URL received" on an OK without one', async () => {
    const { store } = await signedInStore(() => ({
      status: 409,
      data: { status: 'ERROR', code: 'conflict', message: '' },
    }));
    await store.checkout.prepare();
    store.topUp.selectTokens(10);
    await store.checkout.submit();
    expect(store.checkout.generalError).toBe('Checkout failed');

    const noUrl = await signedInStore(() => okPayload({ deposit_id: 'dep-9' }));
    await noUrl.store.checkout.prepare();
    noUrl.store.topUp.selectTokens(10);
    expect(await noUrl.store.checkout.submit()).toBe(false);
    expect(noUrl.store.checkout.generalError).toBe('No redirect URL received');
    expect(noUrl.visits).toEqual([]);
  });

  it('a network failure says "Failed to proceed to checkout"', async () => {
    const { store } = await signedInStore(() => 'network');
    await store.checkout.prepare();
    store.topUp.selectTokens(10);
    await store.checkout.submit();
    expect(store.checkout.generalError).toBe('Failed to proceed to checkout');
  });
});

import { endpoints, type CurrencyView, type DepositStatus } from '@imagestudio/contracts';
import { errorReply, FakeApi, makeStore, okPayload, withCatalog } from '../../../test/fake-api';
import { depositStatusFixture, settingsFixture } from '../../../test/fixtures';
import { checkBilling, checkTopUp, EMPTY_BILLING } from './top-up-validation';
import { BUY_TOKENS_MODAL, CHECKOUT_MODAL, DEPOSIT_POLL_MS, depositIdFromUrl } from './top-up-store';

beforeEach(() => localStorage.clear());

const CURRENCIES: CurrencyView[] = [
  { code: 'EUR', value: 1, symbol: '€', default: 1 },
  { code: 'JPY', value: 162.5, symbol: '¥', default: 0 },
  { code: 'KWD', value: 0.3315, symbol: 'KD', default: 0 },
];

const SETTINGS = settingsFixture({
  vat_percent: 19,
  min_top_up: 5,
  payment_methods: [{ id: 1, title: 'Credit/Debit card', code: 'card' }],
});

/** A store with the catalogue, EUR/JPY/KWD, 19 % VAT, a 5 EUR minimum top-up and server tiers per currency. */
async function pricedStore(options: { tiersFail?: boolean } = {}) {
  const { catalog } = endpoints;
  const api = withCatalog(new FakeApi())
    .route(catalog.currencies, okPayload(CURRENCIES))
    .route(catalog.settings, okPayload(SETTINGS))
    .route(catalog.tokenPricing, (req) =>
      options.tiersFail
        ? errorReply('internal_error', 'boom')
        : {
            status: 200,
            data: {
              status: 'OK',
              payload: {
                currency: String(req.params.currency),
                priceTiers:
                  req.params.currency === 'JPY'
                    ? [
                        { min: 0.1, max: 99.9, price: 16.25 },
                        { min: 100, max: null, price: 14.625 },
                      ]
                    : req.params.currency === 'KWD'
                      ? [
                          { min: 0.1, max: 99.9, price: 0.0332 },
                          { min: 100, max: null, price: 0.0298 },
                        ]
                      : [
                          { min: 0.1, max: 99.9, price: 0.1 },
                          { min: 100, max: null, price: 0.09 },
                        ],
              },
            },
          },
    );
  const { store, navigator } = makeStore(api);
  await store.currencies.load();
  await Promise.all([store.settings.load(), store.packs.load()]);
  await store.tokenPricing.load();
  return { store, api, navigator };
}

describe('top-up checks (first failure wins)', () => {
  const ok = {
    choice: { kind: 'tokens' as const, tokens: 50 },
    termsAccepted: true,
    totalMinor: 500,
    minTopUpMinor: 100,
    paymentType: 'card',
  };

  it('reports nothing chosen, then a bad amount, then terms, then the minimum, then the payment method', () => {
    expect(checkTopUp({ ...ok, choice: null, termsAccepted: false, paymentType: null })?.key).toBe(
      'client-payments.errors.nothingChosen',
    );
    expect(checkTopUp({ ...ok, choice: { kind: 'amount', amount: 'abc' }, termsAccepted: false })?.key).toBe(
      'client-payments.errors.invalidAmount',
    );
    expect(checkTopUp({ ...ok, choice: { kind: 'amount', amount: '0' } })?.key).toBe(
      'client-payments.errors.invalidAmount',
    );
    expect(checkTopUp({ ...ok, choice: { kind: 'amount', amount: '-3' } })?.key).toBe(
      'client-payments.errors.invalidAmount',
    );
    expect(checkTopUp({ ...ok, choice: { kind: 'tokens', tokens: 0 } })?.key).toBe(
      'client-payments.errors.invalidAmount',
    );
    expect(checkTopUp({ ...ok, termsAccepted: false, totalMinor: 1, paymentType: null })?.key).toBe(
      'client-payments.errors.acceptTerms',
    );
    expect(checkTopUp({ ...ok, totalMinor: 99, paymentType: null })).toEqual({
      level: 'warning',
      key: 'client-payments.errors.minTopUp',
    });
    expect(checkTopUp({ ...ok, paymentType: null })?.key).toBe('client-payments.errors.paymentMethod');
    expect(checkTopUp(ok)).toBeNull();
    expect(checkTopUp({ ...ok, totalMinor: 100 })).toBeNull();
  });
});

describe('checkout form checks (one message per field)', () => {
  const filled = {
    name: 'Ada',
    surname: 'Lovelace',
    email: 'ada@example.test',
    phone: '+49 301234567',
    country: '1',
    city: 'Berlin',
    address: 'Main 1',
    postCode: '10117',
  };

  it('lists every failing field in form order with its message', () => {
    expect(checkBilling(EMPTY_BILLING, false)).toEqual([
      ['name', 'client-payments.errors.firstName'],
      ['surname', 'client-payments.errors.lastName'],
      ['phone', 'client-payments.errors.phoneRequired'],
      ['email', 'client-payments.errors.emailRequired'],
      ['country', 'client-payments.errors.countryRequired'],
      ['city', 'client-payments.errors.cityRequired'],
      ['address', 'client-payments.errors.addressRequired'],
      ['postCode', 'client-payments.errors.postCodeRequired'],
    ]);
  });

  it('checks the phone format (optional plus, 8 to 15 digits and spaces) and the email format', () => {
    expect(checkBilling({ ...filled, phone: '12-34-56-78' }, false)).toEqual([
      ['phone', 'client-payments.errors.phoneInvalid'],
    ]);
    expect(checkBilling({ ...filled, phone: '1234567' }, false)).toEqual([
      ['phone', 'client-payments.errors.phoneInvalid'],
    ]);
    expect(checkBilling({ ...filled, phone: '+1234567890' }, false)).toEqual([]);
    expect(checkBilling({ ...filled, email: 'not-an-email' }, false)).toEqual([
      ['email', 'client-payments.errors.emailInvalid'],
    ]);
  });

  it('skips the email when the account has one', () => {
    expect(checkBilling({ ...filled, email: '' }, true)).toEqual([]);
  });
});

describe('pricing and the Buy Tokens modal', () => {
  it('prices packs and tokens with VAT in the current currency and re-prices on a currency change', async () => {
    const { store } = await pricedStore();
    store.topUp.selectTokens(50);
    expect(store.topUp.plan?.title).toBe('Custom Plan');
    expect(store.topUp.plan?.quote).toMatchObject({
      subtotal: 5,
      vat: 0.95,
      total: 5.95,
      currency: 'EUR',
      decimals: 2,
    });

    store.currencies.select('JPY');
    await store.tokenPricing.load();
    // 50 x 16.25 = 812.5 -> 813 yen, VAT 19 % = 154.47 -> 154, no decimals.
    expect(store.topUp.plan?.quote).toMatchObject({
      subtotal: 813,
      vat: 154,
      total: 967,
      currency: 'JPY',
      decimals: 0,
    });

    store.currencies.select('KWD');
    await store.tokenPricing.load();
    // 50 x 0.0332 = 1.660 KWD, VAT 0.3154 -> 0.320: cards take KWD in multiples of 10 fils, so every amount is one.
    expect(store.topUp.plan?.quote).toMatchObject({
      subtotal: 1.66,
      vat: 0.32,
      total: 1.98,
      totalMinor: 1980,
      currency: 'KWD',
      decimals: 3,
    });

    store.currencies.select('EUR');
    store.topUp.selectPack(2);
    expect(store.topUp.plan).toMatchObject({ title: 'Pro', quote: { subtotal: 9.99, vat: 1.9, total: 11.89 } });
  });

  it('uses the local tier table, converted at the currency rate, when the token-pricing call fails', async () => {
    const { store } = await pricedStore({ tiersFail: true });
    expect(store.tokenPricing.usingFallback).toBe(true);
    store.currencies.select('JPY');
    await store.tokenPricing.load();
    store.topUp.selectTokens(10);
    // DEFAULT_PRICE_TIERS: 0.10 EUR x 162.5 = 16.25 JPY a token -> 162.5 -> 163 yen before VAT.
    expect(store.topUp.plan?.quote.subtotal).toBe(163);
  });

  it('minimum top-up is min_top_up x the currency value, falling back to 1, formatted with the currency decimals', async () => {
    const { store } = await pricedStore();
    expect(store.tokenPricing.minTopUpText).toBe('€5.00');
    store.currencies.select('JPY');
    expect(store.tokenPricing.minTopUpText).toBe('¥813');
    store.currencies.select('KWD');
    expect(store.tokenPricing.minTopUpText.replace(/\u00a0/g, ' ')).toBe('KWD 1.660'); // 5 x 0.3315 = 1.6575, to the 0.010 charge step

    localStorage.clear();
    const { store: noMin, api } = await pricedStore();
    // Broken on purpose: settings without min_top_up, which the server always sends.
    api.routeRaw(endpoints.catalog.settings, okPayload({ ...SETTINGS, min_top_up: undefined }));
    await noMin.settings.load();
    expect(noMin.tokenPricing.minTopUpText).toBe('€1.00');
  });

  it('opening Buy Tokens resets payment type and acceptance; the card button validates, warns and opens checkout', async () => {
    const { store } = await pricedStore();
    store.topUp.setPaymentType(null);
    store.topUp.setTermsAccepted(true);
    store.topUp.openBuyModal();
    expect(store.topUp.paymentType).toBe('card');
    expect(store.topUp.termsAccepted).toBe(false);
    expect(store.ui.isModalOpen(BUY_TOKENS_MODAL)).toBe(true);

    expect(store.topUp.proceedToCheckout()).toBe(false);
    expect(store.topUp.error).toBe('Please enter a valid amount, select a pack, or specify tokens');

    store.topUp.selectTokens(10); // 1.00 + 19 % = 1.19 EUR, below the 5 EUR minimum
    expect(store.topUp.proceedToCheckout()).toBe(false);
    expect(store.topUp.error).toBe('Please accept the terms and privacy policy');
    store.topUp.setTermsAccepted(true);
    expect(store.topUp.proceedToCheckout()).toBe(false);
    expect(store.topUp.error).toBeNull();
    expect(store.topUp.warning).toBe('Minimum top-up amount: €5.00');

    store.topUp.selectTokens(50);
    expect(store.topUp.proceedToCheckout()).toBe(true);
    expect(store.topUp.warning).toBeNull();
    expect(store.ui.isModalOpen(CHECKOUT_MODAL)).toBe(true);
    store.topUp.backToBuyModal();
    expect(store.ui.isModalOpen(BUY_TOKENS_MODAL)).toBe(true);
    expect(store.topUp.termsAccepted).toBe(true);
  });

  it('a free or unknown pack is not a choice', async () => {
    const { store } = await pricedStore();
    store.topUp.selectPack(1);
    expect(store.topUp.choice).toBeNull();
    store.topUp.selectPack(99);
    expect(store.topUp.choice).toBeNull();
  });
});

describe('deposit status polling', () => {
  afterEach(() => jest.useRealTimers());

  it('reads the deposit id from the redirect URL order parameter', () => {
    expect(depositIdFromUrl('http://x.test/api/deposit/test-checkout?order=abc-1&token=t')).toBe('abc-1');
    expect(depositIdFromUrl('/api/deposit/redirect?order=d2')).toBe('d2');
    expect(depositIdFromUrl('http://x.test/pay')).toBeNull();
  });

  it('polls every 5 s until a terminal status, then stops and reports it once', async () => {
    jest.useFakeTimers();
    const statuses: DepositStatus[] = ['Pending', 'Processing', 'Success'];
    const api = new FakeApi().route(
      endpoints.payments.depositStatus,
      () => okPayload(depositStatusFixture({ id: 'dep-1', status: statuses.shift() ?? 'Success' })),
      { depositId: 'dep-1' },
    );
    const { store } = makeStore(api);
    const onTerminal = jest.fn();
    store.topUp.pollDeposit('dep-1', onTerminal);

    await jest.advanceTimersByTimeAsync(DEPOSIT_POLL_MS - 1);
    expect(api.seen).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(api.seen).toHaveLength(1);
    expect(store.topUp.depositStatus).toBe('Pending');
    await jest.advanceTimersByTimeAsync(DEPOSIT_POLL_MS * 2);
    expect(api.seen).toHaveLength(3);
    expect(store.topUp.depositStatus).toBe('Success');
    expect(onTerminal).toHaveBeenCalledTimes(1);
    expect(onTerminal).toHaveBeenCalledWith('Success');
    expect(store.topUp.polling).toBe(false);
    await jest.advanceTimersByTimeAsync(DEPOSIT_POLL_MS * 4);
    expect(api.seen).toHaveLength(3);
  });

  it('stopPolling clears the interval (leaving the page)', async () => {
    jest.useFakeTimers();
    const api = new FakeApi().route(
      endpoints.payments.depositStatus,
      okPayload(depositStatusFixture({ id: 'dep-2', status: 'Pending' })),
      { depositId: 'dep-2' },
    );
    const { store } = makeStore(api);
    store.topUp.pollDeposit('dep-2');
    await jest.advanceTimersByTimeAsync(DEPOSIT_POLL_MS);
    expect(api.seen).toHaveLength(1);
    store.topUp.stopPolling();
    expect(jest.getTimerCount()).toBe(0);
    await jest.advanceTimersByTimeAsync(DEPOSIT_POLL_MS * 3);
    expect(api.seen).toHaveLength(1);
  });
});

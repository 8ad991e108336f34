import { endpoints, type CurrencyView } from '@imagestudio/contracts';
import { profileFixture, settingsFixture } from '../../test/fixtures';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { FakeApi, okPayload, withCatalog } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

beforeEach(() => {
  localStorage.clear();
  document.cookie = 'cookie_consent=true; path=/';
});

const { account, catalog } = endpoints;

const CURRENCIES: CurrencyView[] = [
  { code: 'EUR', value: 1, symbol: '€', default: 1 },
  { code: 'JPY', value: 162.5, symbol: '¥', default: 0 },
  { code: 'KWD', value: 0.3315, symbol: 'KD', default: 0 },
];
const RATE: Record<string, number> = { EUR: 1, JPY: 162.5, KWD: 0.3315 };

/** The catalogue with three currencies whose packs and tiers the fake converts like the server does. */
function pricingApi() {
  return withCatalog(new FakeApi())
    .route(catalog.currencies, okPayload(CURRENCIES))
    .route(
      catalog.settings,
      okPayload(
        settingsFixture({
          vat_percent: 0,
          min_top_up: 1,
          payment_methods: [{ id: 1, title: 'Credit/Debit card', code: 'card' }],
        }),
      ),
    )
    .route(catalog.packs, (req) => {
      const code = String(req.params.currency);
      const price = code === 'JPY' ? 1623 : code === 'KWD' ? 3.31 : 9.99;
      return okPayload([
        { id: 1, title: 'Free', description: '', price: 0, credits: 10, saving: 0 },
        { id: 2, title: 'Starter', description: '', price, credits: 100, saving: 0 },
      ]);
    })
    .route(catalog.tokenPricing, (req) => {
      const code = String(req.params.currency);
      const unit = (eur: number) => Math.round(eur * RATE[code]! * 10000) / 10000;
      return okPayload({
        currency: code,
        priceTiers: [
          { min: 0.1, max: 99.9, price: unit(0.1) },
          { min: 100, max: null, price: unit(0.09) },
        ],
      });
    });
}

describe('pricing page', () => {
  it('starts the slider at 10 percent and shows tokens, price per token and total live', async () => {
    renderApp('/pricing', pricingApi());
    await screen.findByRole('heading', { name: 'Pricing', level: 1 });
    await waitFor(() => expect(screen.getByTestId('custom-total').textContent).toBe('€18.08'));
    expect(screen.getByTestId('custom-tokens').textContent).toBe('200.9');
    expect(screen.getByTestId('custom-unit-price').textContent).toBe('€0.09');
    fireEvent.change(screen.getByTestId('token-slider'), { target: { value: '0' } });
    expect(screen.getByTestId('custom-tokens').textContent).toBe('1');
    expect(screen.getByTestId('custom-total').textContent).toBe('€0.10');
  });

  it('takes a typed amount exactly, refuses one outside 1-2000 or finer than 0.1, and the slider follows', async () => {
    renderApp('/pricing', pricingApi());
    await waitFor(() => expect(screen.getByTestId('custom-total').textContent).toBe('€18.08'));
    const field = screen.getByLabelText('Tokens to buy');
    fireEvent.change(field, { target: { value: '100' } });
    expect(screen.getByTestId('custom-tokens').textContent).toBe('100');
    expect(screen.getByTestId('custom-total').textContent).toBe('€9.00');
    expect(Number((screen.getByTestId('token-slider') as HTMLInputElement).value)).toBeCloseTo(4.95, 1);
    fireEvent.change(field, { target: { value: '12.55' } });
    expect(screen.getByText('Enter an amount from 1 to 2000 tokens in steps of 0.1.')).toBeTruthy();
    expect(screen.getByTestId('custom-buy')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('custom-tokens').textContent).toBe('100');
    fireEvent.change(field, { target: { value: '2001' } });
    expect(screen.getByTestId('custom-buy')).toHaveProperty('disabled', true);
    fireEvent.change(field, { target: { value: '12.5' } });
    expect(screen.queryByText('Enter an amount from 1 to 2000 tokens in steps of 0.1.')).toBeNull();
    expect(screen.getByTestId('custom-tokens').textContent).toBe('12.5');
    expect(screen.getByTestId('custom-total').textContent).toBe('€1.25');
    fireEvent.change(screen.getByTestId('token-slider'), { target: { value: '0' } });
    expect((field as HTMLInputElement).value).toBe('1');
  });

  it('marks a per-token price as approximate where the display rounds it (yen), never where it is exact', async () => {
    const { store } = renderApp('/pricing', pricingApi());
    await waitFor(() => expect(screen.getByTestId('custom-unit-price').textContent).toBe('€0.09'));
    store.currencies.select('JPY');
    await waitFor(() => expect(screen.getByTestId('custom-unit-price').textContent).toBe('about ¥15'));
  });

  it('shows price or "free" per pack and Choose only on paid packs', async () => {
    renderApp('/pricing', pricingApi());
    const free = await screen.findByTestId('pack-1');
    expect(within(free).getByText('free')).toBeTruthy();
    expect(within(free).queryByRole('button', { name: 'Choose' })).toBeNull();
    const starter = screen.getByTestId('pack-2');
    expect(within(starter).getByText('€9.99')).toBeTruthy();
    expect(within(starter).getByRole('button', { name: 'Choose' })).toBeTruthy();
  });

  it('a guest choosing a pack goes to Login with a redirect back to the pack', async () => {
    const { router } = renderApp('/pricing', pricingApi());
    fireEvent.click(within(await screen.findByTestId('pack-2')).getByRole('button', { name: 'Choose' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/pricing?pack=2');
  });

  it('an unverified customer is told in Buy Tokens to verify first, can resend the link, and cannot go on to billing', async () => {
    const api = pricingApi()
      .route(account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: false } })
      .route(account.profile, okPayload(profileFixture({ balance: 10, email_verified: false })))
      .route(account.resendVerification, {
        status: 200,
        data: { status: 'OK', message: 'A new verification link has been sent to your email address.' },
      });
    renderApp('/pricing?pack=2', api);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Tokens' });
    expect((await within(dialog).findByTestId('buy-unverified')).textContent).toContain(
      'Please verify your email address before buying tokens',
    );
    expect(within(dialog).getByRole('button', { name: 'Credit/Debit card' })).toHaveProperty('disabled', true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send the link again' }));
    expect((await within(dialog).findByTestId('resend-answer')).textContent).toBe(
      'A new verification link has been sent to your email address.',
    );
    expect(screen.queryByRole('dialog', { name: 'Confirm Information' })).toBeNull();
  });

  it('a verified customer sees no verification notice in Buy Tokens', async () => {
    const api = pricingApi()
      .route(account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
      .route(account.profile, okPayload(profileFixture({ balance: 10 })));
    renderApp('/pricing?pack=2', api);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Tokens' });
    expect(within(dialog).queryByTestId('buy-unverified')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Credit/Debit card' })).toHaveProperty('disabled', false);
  });

  it('changing the currency re-prices the slider, the packs and the open modal with that currency decimals', async () => {
    const api = pricingApi()
      .route(account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
      .route(account.profile, okPayload(profileFixture({ balance: 10 })));
    const { store } = renderApp('/pricing?pack=2', api);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Tokens' });
    expect(within(dialog).getByTestId('plan-title').textContent).toBe('Starter');
    expect(within(dialog).getByTestId('plan-total').textContent).toBe('€9.99');

    store.currencies.select('JPY');
    await waitFor(() => expect(within(dialog).getByTestId('plan-total').textContent).toBe('¥1,623'));
    await waitFor(() => expect(screen.getByTestId('custom-total').textContent).toBe('¥2,938'));

    store.currencies.select('KWD');
    await waitFor(() =>
      expect(
        within(dialog)
          .getByTestId('plan-total')
          .textContent?.replace(/\u00a0/g, ' '),
      ).toBe('KWD 3.310'),
    );
    // 200.9 x 0.0298 = 5.98682 KWD, priced to the 0.010 a card can be charged: 5.990.
    await waitFor(() =>
      expect(screen.getByTestId('custom-total').textContent?.replace(/\u00a0/g, ' ')).toBe('KWD 5.990'),
    );
  });
});

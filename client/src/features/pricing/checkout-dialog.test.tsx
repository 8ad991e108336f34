import { endpoints } from '@imagestudio/contracts';
import fs from 'node:fs';
import path from 'node:path';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { profileFixture, settingsFixture } from '../../test/fixtures';
import { FakeApi, okPayload, withCatalog } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

const { account, catalog } = endpoints;

/** The German strings as the server seeds them. */
const GERMAN = (
  JSON.parse(
    fs.readFileSync(path.resolve(__dirname, '../../../../migrations/seeds/strings/client-payments.json'), 'utf8'),
  ) as { de: Record<string, string> }
).de;

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('auth_session', '1');
  document.cookie = 'cookie_consent=true; path=/';
});

function checkoutApi() {
  return withCatalog(new FakeApi())
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
    .route(catalog.localizations, (req) => okPayload(req.params.lang_id === 2 ? GERMAN : {}))
    .route(account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(account.profile, okPayload(profileFixture({ balance: 10 })));
}

async function openCheckout(buyDialog: string, card: string, confirmDialog: string) {
  const buy = await screen.findByRole('dialog', { name: buyDialog });
  fireEvent.click(within(buy).getByRole('checkbox'));
  fireEvent.click(within(buy).getByRole('button', { name: card }));
  return screen.findByRole('dialog', { name: confirmDialog });
}

describe('Buy Tokens and checkout', () => {
  it('VAT of 0 keeps its currency; Back and Confirm Payment are title case like every other button', async () => {
    renderApp('/pricing?pack=2', checkoutApi());
    const buy = await screen.findByRole('dialog', { name: 'Buy Tokens' });
    await waitFor(() => expect(within(buy).getByTestId('plan-vat').textContent).toBe('€0.00'));
    const dialog = await openCheckout('Buy Tokens', 'Credit/Debit card', 'Confirm Information');
    expect(within(dialog).getByRole('button', { name: 'Back' }).textContent).toBe('Back');
    expect(within(dialog).getByRole('button', { name: 'Confirm Payment' }).textContent).toBe('Confirm Payment');
  });

  it('German: the payment method, the buttons and the amount field in German', async () => {
    localStorage.setItem('languageId', '2');
    renderApp('/pricing?pack=2', checkoutApi());
    await waitFor(() => expect((screen.getByLabelText('Anzahl Tokens') as HTMLInputElement).value).toBe('200,9'));
    expect(screen.getByTestId('custom-tokens').textContent).toBe('200,9');
    const field = screen.getByLabelText('Anzahl Tokens') as HTMLInputElement;
    fireEvent.change(field, { target: { value: '12,5' } });
    expect(screen.getByTestId('custom-tokens').textContent).toBe('12,5');
    const dialog = await openCheckout('Tokens kaufen', 'Kredit-/Debitkarte', 'Angaben bestätigen');
    expect(within(dialog).getByTestId('checkout-method').textContent).toBe('Kredit-/Debitkarte');
    expect(within(dialog).getByRole('button', { name: 'Zurück' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Zahlung bestätigen' })).toBeTruthy();
  });
});

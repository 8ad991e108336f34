import { endpoints, type DepositStatus } from '@imagestudio/contracts';
import { depositStatusFixture, profileFixture } from '../../test/fixtures';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { FakeApi, errorReply, okPayload, withCatalog } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

beforeEach(() => {
  localStorage.clear();
  document.cookie = 'cookie_consent=true; path=/';
});
afterEach(() => jest.useRealTimers());

const { depositStatus } = endpoints.payments;

/** The deposit `id` as its status call answers it. */
const deposit = (id: string, status: DepositStatus, over: { tokens?: number; pack_id?: number | null } = {}) =>
  okPayload(depositStatusFixture({ id, status, ...over }));

function signedInApi(profileCalls: { n: number }, balance = () => 10) {
  return withCatalog(new FakeApi())
    .route(endpoints.account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(endpoints.account.profile, () => {
      profileCalls.n += 1;
      return { status: 200, data: { status: 'OK', payload: profileFixture({ balance: balance() }) } };
    });
}

describe('payment result pages', () => {
  it('success: title, toast, refreshed profile and the two buttons', async () => {
    // Start-up reads 10 tokens; the success page's own refresh sees the credited 110.
    const calls = { n: 0 };
    renderApp(
      '/success-payment?order=dep-1',
      signedInApi(calls, () => (calls.n >= 2 ? 110 : 10)).route(depositStatus, deposit('dep-1', 'Success'), {
        depositId: 'dep-1',
      }),
    );
    await screen.findByRole('heading', { name: 'Payment Successful!' });
    expect(await screen.findByText('Payment completed successfully!')).toBeTruthy();
    await screen.findByText('110');
    expect(calls.n).toBeGreaterThanOrEqual(2);
    expect(screen.getByRole('link', { name: 'Go to Account' }).getAttribute('href')).toBe('/account');
    expect(screen.getAllByRole('link', { name: 'Back to Home' })[0]!.getAttribute('href')).toBe('/');
  });

  it('success without an order confirms nothing and sends home; a guest with an order signs in first', async () => {
    const { router } = renderApp('/success-payment', signedInApi({ n: 0 }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(screen.queryByRole('heading', { name: 'Payment Successful!' })).toBeNull();
    expect(screen.queryByText('Payment completed successfully!')).toBeNull();
    cleanup();

    const guest = renderApp('/success-payment?order=dep-3', withCatalog(new FakeApi()));
    await waitFor(() => expect(guest.router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(guest.router.state.location.search).get('redirect')).toBe(
      '/success-payment?order=dep-3',
    );
  });

  it('fail: Try Again reopens the same pack, or the same custom amount, of the failed order', async () => {
    const pack = signedInApi({ n: 0 }).route(depositStatus, deposit('dep-4', 'Error', { tokens: 100, pack_id: 2 }), {
      depositId: 'dep-4',
    });
    renderApp('/fail-payment?order=dep-4', pack);
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Try Again' }).getAttribute('href')).toBe('/pricing?pack=2'),
    );
    cleanup();
    const custom = signedInApi({ n: 0 }).route(
      depositStatus,
      deposit('dep-5', 'Error', { tokens: 37.5, pack_id: null }),
      { depositId: 'dep-5' },
    );
    renderApp('/fail-payment?order=dep-5', custom);
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Try Again' }).getAttribute('href')).toBe('/pricing?tokens=37.5'),
    );
  });

  it('expired: the checkout ran out unpaid, nothing charged, no error toast', async () => {
    renderApp('/cancelled-payment?order=d1&expired=1', withCatalog(new FakeApi()));
    await screen.findByRole('heading', { name: 'Checkout Expired' });
    expect(screen.getByTestId('payment-cancelled').textContent).toBe(
      'This checkout expired before it was paid. Nothing was charged and your balance is unchanged.',
    );
    expect(screen.queryByText('Payment failed. Please try again.')).toBeNull();
  });

  it('fail: the text of a known error code, or the generic advice; an error toast; Try Again goes to pricing', async () => {
    renderApp('/fail-payment?order=d1&error=card_declined', withCatalog(new FakeApi()));
    await screen.findByRole('heading', { name: 'Payment Failed' });
    expect(screen.getByTestId('payment-error').textContent).toBe(
      'Your card was declined. Please use another card or ask your bank.',
    );
    expect(screen.getByText('Payment failed. Please try again.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Try Again' }).getAttribute('href')).toBe('/pricing');
  });

  it('fail: text from the address itself is never shown, only the generic advice', async () => {
    const planted = 'Your account is locked. Call +1 555 0100 now.';
    renderApp(`/fail-payment?order=d1&error=${encodeURIComponent(planted)}`, withCatalog(new FakeApi()));
    await screen.findByText('Unfortunately, your payment could not be processed.');
    expect(screen.queryByText(planted)).toBeNull();
    expect(screen.queryByTestId('payment-error')).toBeNull();
    cleanup();
    renderApp('/fail-payment?error=toString', withCatalog(new FakeApi()));
    await screen.findByText('Unfortunately, your payment could not be processed.');
  });

  it('cancelled: says nothing was charged, without an error toast', async () => {
    renderApp('/cancelled-payment?order=d1', withCatalog(new FakeApi()));
    await screen.findByRole('heading', { name: 'Payment Cancelled' });
    expect(screen.getByTestId('payment-cancelled').textContent).toBe(
      'You cancelled the payment. Nothing was charged and your balance is unchanged.',
    );
    expect(screen.queryByText('Payment failed. Please try again.')).toBeNull();
    expect(screen.getByRole('link', { name: 'Choose tokens again' }).getAttribute('href')).toBe('/pricing');
  });

  it.each<[DepositStatus, string, string]>([
    ['Cancelled', '/cancelled-payment', '?order=dep-9'],
    ['Expired', '/cancelled-payment', '?order=dep-9&expired=1'],
    ['Error', '/fail-payment', '?order=dep-9&error=payment_failed'],
    ['Pending', '/processing-payment', '?order_id=dep-9'],
  ])(
    'success page with a %s order moves to its own page and never says successful',
    async (status, pathname, search) => {
      const api = signedInApi({ n: 0 }).route(depositStatus, deposit('dep-9', status), { depositId: 'dep-9' });
      const { router } = renderApp('/success-payment?order=dep-9', api);
      await waitFor(() => expect(router.state.location.pathname).toBe(pathname));
      expect(router.state.location.search).toBe(search);
      expect(screen.queryByRole('heading', { name: 'Payment Successful!' })).toBeNull();
      expect(screen.queryByText('Payment completed successfully!')).toBeNull();
    },
  );

  it('success page with an order the customer does not have sends home; one unreadable just now goes to processing', async () => {
    const missing = signedInApi({ n: 0 }).route(depositStatus, errorReply('not_found', 'Not found.'), {
      depositId: 'dep-x',
    });
    const { router } = renderApp('/success-payment?order=dep-x', missing);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(screen.queryByRole('heading', { name: 'Payment Successful!' })).toBeNull();
    cleanup();

    const down = signedInApi({ n: 0 }).route(depositStatus, errorReply('internal_error', 'Server error.'), {
      depositId: 'dep-y',
    });
    const second = renderApp('/success-payment?order=dep-y', down);
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/processing-payment'));
    expect(second.router.state.location.search).toBe('?order_id=dep-y');
    expect(screen.queryByText('Payment completed successfully!')).toBeNull();
  });

  it('success page with a paid order shows success once the status confirms it', async () => {
    const api = signedInApi({ n: 0 }).route(depositStatus, deposit('dep-8', 'Success'), { depositId: 'dep-8' });
    renderApp('/success-payment?order=dep-8', api);
    await screen.findByRole('heading', { name: 'Payment Successful!' });
    expect(screen.getByText('Order ID: dep-8')).toBeTruthy();
  });

  it('fail without an error shows the generic advice', async () => {
    renderApp('/fail-payment?order=d1', withCatalog(new FakeApi()));
    await screen.findByText('Unfortunately, your payment could not be processed.');
    expect(screen.getByText('Please try again or contact support if the problem persists.')).toBeTruthy();
  });

  it('processing: order id or the email line; Check Status shows "Checking..." then the checked line', async () => {
    const calls = { n: 0 };
    renderApp('/pending-payment', signedInApi(calls));
    await screen.findByRole('heading', { name: 'Payment Processing' });
    expect(screen.getByText('You will receive a confirmation email once the payment is complete.')).toBeTruthy();
    const button = screen.getByRole('button', { name: 'Check Status' });
    fireEvent.click(button);
    expect(screen.getByText('Checking...')).toBeTruthy();
    expect(
      await screen.findByText('Status checked. If payment completed, your balance has been updated.'),
    ).toBeTruthy();
  });

  it('processing with an order: polls the deposit every 5 s and moves to the success page when it settles', async () => {
    jest.useFakeTimers();
    const calls = { n: 0 };
    const statuses: DepositStatus[] = ['Pending', 'Success'];
    const api = signedInApi(calls).route(depositStatus, () => deposit('dep-7', statuses.shift() ?? 'Success'), {
      depositId: 'dep-7',
    });
    const { router } = renderApp('/processing-payment?order_id=dep-7', api);
    await act(async () => {
      await jest.advanceTimersByTimeAsync(100);
    });
    expect(screen.getByText('Order ID: dep-7')).toBeTruthy();
    const profileCallsAtStart = calls.n;
    await act(async () => {
      await jest.advanceTimersByTimeAsync(5000);
    });
    // The first pending check refetched the profile; the deposit is still Pending.
    expect(calls.n).toBe(profileCallsAtStart + 1);
    expect(router.state.location.pathname).toBe('/processing-payment');
    await act(async () => {
      await jest.advanceTimersByTimeAsync(5000);
    });
    expect(router.state.location.pathname).toBe('/success-payment');
    expect(router.state.location.search).toBe('?order=dep-7');
  });

  it('leaving the processing page clears its timers', async () => {
    jest.useFakeTimers();
    const calls = { n: 0 };
    const api = signedInApi(calls).route(depositStatus, deposit('dep-8', 'Pending'), { depositId: 'dep-8' });
    const { router } = renderApp('/processing-payment?order_id=dep-8', api);
    await act(async () => {
      await jest.advanceTimersByTimeAsync(100);
    });
    await act(async () => {
      await router.navigate('/');
    });
    const seen = api.seen.length;
    await act(async () => {
      await jest.advanceTimersByTimeAsync(120_000);
    });
    expect(api.calls(depositStatus)).toHaveLength(0);
    expect(api.seen.length).toBe(seen);
  });
});

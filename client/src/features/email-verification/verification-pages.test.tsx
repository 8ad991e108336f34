import { endpoints } from '@imagestudio/contracts';
import { profileFixture } from '../../test/fixtures';
import { fireEvent, screen } from '@testing-library/react';
import { FakeApi, withCatalog } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

beforeEach(() => {
  localStorage.clear();
  document.cookie = 'cookie_consent=true; path=/';
});

function unverified() {
  return withCatalog(new FakeApi())
    .route(endpoints.account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: false } })
    .route(endpoints.account.profile, {
      status: 200,
      data: { status: 'OK', payload: profileFixture({ balance: 10 }) },
    });
}

describe('/email-verification', () => {
  it('names the address and re-sends the link, showing what the server said', async () => {
    const api = unverified().route(endpoints.account.resendVerification, {
      status: 200,
      data: { status: 'OK', message: 'A new verification link has been sent to your email address.' },
    });
    renderApp('/email-verification', api);
    expect(
      await screen.findByText('We sent a verification link to ada@example.test. Open it to unlock every feature.'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send the link again' }));
    expect((await screen.findByTestId('resend-answer')).textContent).toBe(
      'A new verification link has been sent to your email address.',
    );
    expect(api.last(endpoints.account.resendVerification)).toBeDefined();
  });

  it('explains an invalid or expired link, and shows the cool-down when asked too often', async () => {
    const api = unverified().route(endpoints.account.resendVerification, {
      status: 429,
      data: { status: 'ERROR', code: 'rate_limited', message: 'You can ask for another link in 42 minutes.' },
    });
    renderApp('/email-verification?invalid=1', api);
    expect(await screen.findByText(/invalid or has expired/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send the link again' }));
    expect((await screen.findByTestId('resend-answer')).textContent).toBe(
      'You can ask for another link in 42 minutes.',
    );
  });
});

describe('/forgot-password', () => {
  it('says on the page that the link was sent', async () => {
    const api = withCatalog(new FakeApi()).route(endpoints.account.requestPasswordResetLink, {
      status: 200,
      data: { status: 'OK', message: 'sent' },
    });
    renderApp('/forgot-password', api);
    fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: 'ada@example.test' } });
    fireEvent.click(screen.getByRole('button', { name: /Send/ }));
    expect((await screen.findByTestId('reset-link-sent')).textContent).toContain('ada@example.test');
  });
});

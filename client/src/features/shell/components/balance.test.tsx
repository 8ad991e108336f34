import { endpoints } from '@imagestudio/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import { profileFixture } from '../../../test/fixtures';
import { FakeApi, okPayload, withCatalog } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('auth_session', '1');
  document.cookie = 'cookie_consent=true; path=/';
});

describe('header balance on a fresh load', () => {
  it('shows a placeholder, never "0", until the profile is known; then the balance', async () => {
    let answer: (value: unknown) => void = () => undefined;
    const api = withCatalog(new FakeApi())
      .route(endpoints.account.isAuth, {
        status: 200,
        data: { status: 'OK', authenticated: true, emailVerified: true },
      })
      .route(endpoints.account.profile, () => new Promise((resolve) => (answer = resolve as (value: unknown) => void)));
    renderApp('/', api);
    const balance = (await screen.findAllByTestId('balance'))[0]!;
    expect(balance.textContent).not.toMatch(/\d/);
    expect(balance.getAttribute('aria-busy')).toBe('true');
    expect(balance.querySelector('[data-testid="balance-pending"]')).not.toBeNull();
    await act(async () => answer(okPayload(profileFixture({ balance: 42 }))));
    await waitFor(() => expect(screen.getAllByTestId('balance')[0]!.textContent).toContain('42'));
    expect(screen.getAllByTestId('balance')[0]!.getAttribute('aria-busy')).toBeNull();
  });
});

import { endpoints } from '@imagestudio/contracts';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { profileFixture } from '../../test/fixtures';
import { FakeApi, okPayload, withCatalog } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

const SUGGESTION = 'Xk7#pQ2mLw9Zr4Tv'; // 16 characters, as a password manager makes them up
const TOO_LONG =
  'This password is longer than 12 characters. Please use 6-12 characters; a password manager can be set to 12.';

beforeEach(() => {
  localStorage.clear();
  document.cookie = 'cookie_consent=true; path=/';
});
afterEach(cleanup);

function signedIn() {
  localStorage.setItem('auth_session', '1');
  return withCatalog(new FakeApi())
    .route(endpoints.account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(endpoints.account.profile, okPayload(profileFixture({ balance: 10 })));
}

/** The password input, its hint and what a long suggestion does to it. */
function expectRuleShownAndLongSuggestionRefused(input: HTMLInputElement) {
  const hint = document.getElementById(`${input.id}-help`);
  expect(hint?.textContent).toMatch(/^6-12 characters/);
  expect(input.hasAttribute('maxlength')).toBe(false);
  expect(input.getAttribute('passwordrules')).toContain('maxlength: 12');
  fireEvent.change(input, { target: { value: SUGGESTION } });
  expect(input.value).toBe(SUGGESTION);
  expect(screen.getByText(TOO_LONG)).toBeTruthy();
  expect(input.getAttribute('aria-invalid')).toBe('true');
}

describe('new password fields', () => {
  it('sign-up: the rule under the field before any try; a longer suggestion is kept whole and refused in words', async () => {
    renderApp('/register', withCatalog(new FakeApi()));
    const input = (await screen.findByLabelText(/^Password/)) as HTMLInputElement;
    expectRuleShownAndLongSuggestionRefused(input);
  });

  it('change password: the same on the new password', async () => {
    renderApp('/account/change-password', signedIn());
    const input = (await screen.findByLabelText(/^New password/i)) as HTMLInputElement;
    expectRuleShownAndLongSuggestionRefused(input);
    fireEvent.change(input, { target: { value: 'Abcdef12' } });
    expect(screen.queryByText(TOO_LONG)).toBeNull();
  });
});

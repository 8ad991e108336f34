import { endpoints } from '@imagestudio/contracts';
import { profileFixture, settingsFixture } from '../test/fixtures';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from './app';
import { createTestRouter } from './router';
import { errorReply, FakeApi, makeStore, okPayload, withCatalog } from '../test/fake-api';
import { renderApp } from '../test/render-app';

beforeEach(() => {
  localStorage.clear();
  document.cookie = 'cookie_consent=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

const start = (path: string, api = withCatalog(new FakeApi())) => renderApp(path, api);

const { account, catalog } = endpoints;

const signedIn = (api: FakeApi) =>
  api
    .route(account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(account.profile, okPayload(profileFixture({ balance: 42.5, created_at: '2026-11-21T10:00:00Z' })));

describe('routes and guards', () => {
  it('a guest opening a signed-in page lands on Login with the full path as redirect', async () => {
    const { router } = start('/account/profile?x=1');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?redirect=%2Faccount%2Fprofile%3Fx%3D1');
  });

  it('after signing in it goes back to the redirect value', async () => {
    const api = withCatalog(new FakeApi()).route(account.login, {
      status: 200,
      data: { status: 'OK', emailVerified: true },
    });
    const { router } = start('/login?redirect=%2Faccount%2Fprofile', api);
    fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: 'ada@example.test' } });
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'Secret1' } });
    signedIn(api);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/profile'));
    expect(await screen.findByText('Ada Lovelace')).toBeTruthy();
    expect(screen.getAllByTestId('balance')[0]!.textContent).toContain('42.5');
  });

  it('without a redirect value login replaces with /account, which shows the profile tab', async () => {
    const api = withCatalog(new FakeApi()).route(account.login, { status: 200, data: { status: 'OK' } });
    const { router } = start('/login', api);
    fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: 'ada@example.test' } });
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'Secret1' } });
    signedIn(api);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/profile'));
  });

  it('a signed-in user opening a guest page goes home', async () => {
    const { router } = start('/register', signedIn(withCatalog(new FakeApi())));
    await screen.findByRole('heading', { name: /Turn ideas into images/ }, { timeout: 8000 });
    expect(router.state.location.pathname).toBe('/');
  });

  it('unknown paths and unknown slugs show Not Found with its texts', async () => {
    start('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Oops! Page Not Found' })).toBeTruthy();
    expect(screen.getByText('Sorry, the page you are looking for does not exist.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go Back Home' }).getAttribute('href')).toBe('/');
  });

  it('a fetched slug is a static page; an unfetched slug is Not Found', async () => {
    const api = withCatalog(new FakeApi()).route(
      catalog.staticPage,
      okPayload({ id: 1, slug: 'terms', title: 'Terms', content: '<p>Be nice.</p>', is_terms: 1, is_privacy: 0 }),
      { id: '1' },
    );
    start('/terms', api);
    expect(await screen.findByText('Be nice.')).toBeTruthy();
  });

  it('a static page shows its title once: its own heading, or the title when it has none', async () => {
    const api = withCatalog(new FakeApi())
      .route(
        catalog.staticPage,
        okPayload({
          id: 1,
          slug: 'terms',
          title: 'Terms',
          content: '<h1>Terms of Service</h1><p>Be nice.</p>',
          is_terms: 1,
          is_privacy: 0,
        }),
        { id: '1' },
      )
      .route(
        catalog.staticPage,
        okPayload({
          id: 2,
          slug: 'cookie-policy',
          title: 'Cookie policy',
          content: '<p>Few.</p>',
          is_terms: 0,
          is_privacy: 0,
        }),
        { id: '2' },
      );
    const { router } = start('/terms', api);
    await screen.findByText('Be nice.');
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['Terms of Service']);
    await act(() => router.navigate('/cookie-policy'));
    await screen.findByText('Few.');
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['Cookie policy']);
  });

  it('unknown slug', async () => {
    start('/pricing-old');
    expect(await screen.findByRole('heading', { name: 'Oops! Page Not Found' })).toBeTruthy();
  });

  it('the header and footer are hidden on the auth pages', async () => {
    start('/forgot-password');
    await screen.findByRole('heading', { name: 'Forgot password' });
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    expect(screen.queryByRole('contentinfo')).toBeNull();
  });

  it('shows the initialization error with its message', async () => {
    const api = withCatalog(new FakeApi());
    const router = createTestRouter('/');
    const { store } = makeStore(api);
    jest.spyOn(store.pages, 'load').mockRejectedValue(new Error('pages exploded'));
    render(<App store={store} router={router} />);
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'An error occurred during initialization: pages exploded',
    );
  });
});

describe('header, cookie banner, language', () => {
  it('guest header: Sign in and Sign up; services lead to Login', async () => {
    start('/');
    await screen.findByRole('heading', { name: /Turn ideas into images/ });
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Services' }));
    expect(screen.getByRole('link', { name: 'Upscale image' }).getAttribute('href')).toBe(
      '/login?redirect=%2Fservices%2Fupscale',
    );
    fireEvent.keyDown(screen.getByRole('link', { name: 'Upscale image' }), { key: 'Escape' });
    expect(screen.queryByRole('link', { name: 'Upscale image' })).toBeNull();
  });

  it('signed-in header: currency choice, "Tokens:" balance and profile button', async () => {
    start('/', signedIn(withCatalog(new FakeApi())));
    await screen.findByRole('heading', { name: /Turn ideas into images/ });
    expect(screen.getByLabelText('Currency')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('balance').textContent).toBe('Tokens:42.5'));
    expect(screen.getByRole('link', { name: 'Profile' }).getAttribute('href')).toBe('/account');
  });

  it('cookie banner: Accept stores "true" for good; Decline stores "false" and asks again next time', async () => {
    start('/');
    fireEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    expect(document.cookie).toContain('cookie_consent=false');
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).toBeNull();
  });

  it('cookie banner shows again after "false" and links the cookie page', async () => {
    document.cookie = 'cookie_consent=false; path=/';
    start('/');
    const banner = await screen.findByRole('region', { name: 'Cookie consent' });
    expect(banner.querySelector('a')?.getAttribute('href')).toBe('/cookie-policy');
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(document.cookie).toContain('cookie_consent=true');
  });

  it('loads the Google tag of settings only after cookies are accepted', async () => {
    const api = withCatalog(new FakeApi()).route(
      catalog.settings,
      okPayload(settingsFixture({ company_name: 'Image Studio GmbH', google_tag: 'G-TEST1234' })),
    );
    const tagScript = () => document.getElementById('google-tag-G-TEST1234');
    start('/', api);
    fireEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(tagScript()).toBeNull();
    localStorage.clear();
  });

  it('loads the Google tag once cookies are accepted', async () => {
    const api = withCatalog(new FakeApi()).route(
      catalog.settings,
      okPayload(settingsFixture({ company_name: 'Image Studio GmbH', google_tag: 'G-TEST5678' })),
    );
    start('/', api);
    const banner = await screen.findByRole('region', { name: 'Cookie consent' });
    expect(document.getElementById('google-tag-G-TEST5678')).toBeNull();
    fireEvent.click(within(banner).getByRole('button', { name: 'Accept' }));
    await waitFor(() =>
      expect(document.getElementById('google-tag-G-TEST5678')?.getAttribute('src')).toBe(
        'https://www.googletagmanager.com/gtag/js?id=G-TEST5678',
      ),
    );
  });

  it('the footer lists the social links the API serves', async () => {
    const api = withCatalog(new FakeApi()).route(
      catalog.socialLinks,
      okPayload([
        { id: 1, title: 'Instagram', url: 'https://instagram.com/imagestudio', icon: 'instagram' },
        { id: 2, title: 'Bad', url: 'javascript:alert(1)', icon: 'link' },
      ]),
    );
    start('/', api);
    const list = await screen.findByTestId('social-links');
    const links = within(list).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('rel')])).toEqual([
      ['Instagram', 'https://instagram.com/imagestudio', 'noopener noreferrer'],
    ]);
  });

  it('switching the language changes the texts', async () => {
    start('/');
    const select = await screen.findByLabelText('Language');
    await act(async () => {
      fireEvent.change(select, { target: { value: '2' } });
    });
    await waitFor(() => expect(screen.getAllByRole('link', { name: 'Startseite' }).length).toBeGreaterThan(0));
  });
});

describe('register form', () => {
  it('shows the first failure, focuses its field, and ignores a second submit within 300 ms', async () => {
    const { api } = start('/register');
    const submit = await screen.findByRole('button', { name: 'Create account' });
    fireEvent.click(submit);
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText(/^Name/));
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Ada' } });
    fireEvent.click(submit);
    expect(screen.queryByText('Surname is required')).toBeNull();
    await new Promise((r) => setTimeout(r, 320));
    fireEvent.click(submit);
    expect(await screen.findByText('Surname is required')).toBeTruthy();
    expect(api.calls(account.register)).toHaveLength(0);
  });

  it('says a taken email once, under the email field', async () => {
    const taken = 'The email has already been taken.';
    const api = withCatalog(new FakeApi()).route(
      account.register,
      errorReply('validation_failed', taken, { email: [taken] }),
    );
    start('/register', api);
    const submit = await screen.findByRole('button', { name: 'Create account' });
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Ada' } });
    fireEvent.change(screen.getByLabelText(/^Surname/), { target: { value: 'Lovelace' } });
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'ada@example.test' } });
    fireEvent.change(screen.getByLabelText(/^Phone/), { target: { value: '+49 30 901820' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'Secret123' } });
    fireEvent.change(screen.getByLabelText(/^Confirm/), { target: { value: 'Secret123' } });
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(submit);
    await waitFor(() => expect(api.calls(account.register).length).toBeGreaterThan(0));
    expect(await screen.findByText(taken)).toBeTruthy();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getAllByText(taken)).toHaveLength(1);
  });
});

describe('account', () => {
  it('Logout from the side menu signs out, says so and goes home', async () => {
    const api = signedIn(withCatalog(new FakeApi())).route(account.logout, { status: 200, data: { status: 'OK' } });
    const { router, store } = start('/account/profile', api);
    fireEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(store.auth.isAuthenticated).toBe(false);
    expect(await screen.findByText('Logged out successfully')).toBeTruthy();
  });
});

import { endpoints, type ApiOkExtras } from '@imagestudio/contracts';
import { errorReply, FakeApi, fakeNavigator, makeStore, withCatalog } from '../../../test/fake-api';
import { profileFixture } from '../../../test/fixtures';

/** An OK reply with top-level fields (and a payload when given), typed like the route's envelope. */
const ok = <X extends ApiOkExtras & { payload?: unknown }>(extra: X) => ({
  status: 200,
  data: { status: 'OK' as const, ...extra },
});
const profileReply = ok({ payload: profileFixture() });
const { account } = endpoints;

beforeEach(() => {
  localStorage.clear();
});

describe('auth start and check', () => {
  it('starts signed in when the auth_session flag exists, signed out otherwise', () => {
    expect(makeStore(new FakeApi()).store.auth.isAuthenticated).toBe(false);
    localStorage.setItem('auth_session', '1');
    expect(makeStore(new FakeApi()).store.auth.isAuthenticated).toBe(true);
  });

  it('authenticated true: signs in, records emailVerified, clears sessionExpired, stores the flag', async () => {
    const api = new FakeApi().route(account.isAuth, ok({ authenticated: true, emailVerified: true }));
    const { store } = makeStore(api);
    store.auth.sessionExpired = true;
    await store.auth.checkAuth();
    expect(store.auth).toMatchObject({
      isAuthenticated: true,
      emailVerified: true,
      sessionExpired: false,
      authCheckedOnce: true,
    });
    expect(localStorage.getItem('auth_session')).not.toBeNull();
  });

  it.each([
    ['authenticated false', (api: FakeApi) => api.route(account.isAuth, ok({ authenticated: false }))],
    // Broken on purpose: an ERROR envelope sent with 200.
    [
      'a non-OK status',
      (api: FakeApi) => api.routeRaw(account.isAuth, { status: 200, data: { status: 'ERROR', message: 'nope' } }),
    ],
    ['HTTP 401', (api: FakeApi) => api.route(account.isAuth, errorReply('unauthenticated', 'Unauthenticated'))],
    ['HTTP 403', (api: FakeApi) => api.route(account.isAuth, errorReply('forbidden', 'Forbidden'))],
  ])('%s clears flag, token and profile', async (_name, answer) => {
    localStorage.setItem('auth_session', '1');
    localStorage.setItem('token', 'old');
    const { store } = makeStore(answer(new FakeApi()));
    store.profile.profile = profileFixture({ name: 'A', surname: 'B', email: 'a@b.c' });
    await store.auth.checkAuth();
    expect(store.auth.isAuthenticated).toBe(false);
    expect(localStorage.getItem('auth_session')).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    expect(store.profile.profile).toBeNull();
    expect(store.auth.authCheckedOnce).toBe(true);
  });

  it('any other check failure keeps the state and says "Unable to verify authentication status"', async () => {
    localStorage.setItem('auth_session', '1');
    const { store } = makeStore(new FakeApi().route(account.isAuth, errorReply('internal_error', 'boom')));
    await store.auth.checkAuth();
    expect(store.auth.isAuthenticated).toBe(true);
    expect(localStorage.getItem('auth_session')).toBe('1');
    expect(store.auth.error).toBe('Unable to verify authentication status');
    expect(store.ui.toasts).toHaveLength(0);
  });
});

describe('login', () => {
  it('sends username/password/remember, stores the flag, toasts "Welcome back!", fetches the profile', async () => {
    const api = new FakeApi().route(account.login, ok({ emailVerified: false })).route(account.profile, profileReply);
    const { store } = makeStore(api);
    const result = await store.auth.login(
      { email: 'ada@example.test', password: 'Secret1', rememberMe: true },
      '/account/profile',
    );
    expect(result).toEqual({ ok: true });
    expect(api.last(account.login)?.data).toMatchObject({
      username: 'ada@example.test',
      password: 'Secret1',
      remember: true,
    });
    expect(store.auth).toMatchObject({
      isAuthenticated: true,
      emailVerified: false,
      pendingRedirect: '/account/profile',
    });
    expect(localStorage.getItem('auth_session')).toBe('1');
    expect(store.ui.toasts.map((t) => t.message)).toContain('Welcome back!');
    await new Promise((r) => setTimeout(r, 0));
    expect(store.profile.profile?.name).toBe('Ada');
    expect(store.profile.balance).toBe(12.5);
  });

  it('failure shows the first field error, else the message, else "An error occurred"', async () => {
    const api = new FakeApi().route(
      account.login,
      errorReply('validation_failed', 'The given data was invalid.', {
        email: ['These credentials do not match our records.'],
      }),
    );
    const { store } = makeStore(api);
    const spy = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await store.auth.login({ email: 'a@b.c', password: 'x', rememberMe: false })).toMatchObject({
      ok: false,
      message: 'These credentials do not match our records.',
    });
    api.route(account.login, errorReply('validation_failed', 'Wrong email or password'));
    expect(await store.auth.login({ email: 'a@b.c', password: 'x', rememberMe: false })).toMatchObject({
      message: 'Wrong email or password',
    });
    // Broken on purpose: an ERROR envelope sent with 200, without a message.
    api.routeRaw(account.login, { status: 200, data: { status: 'ERROR' } });
    expect(await store.auth.login({ email: 'a@b.c', password: 'x', rememberMe: false })).toMatchObject({
      message: 'An error occurred',
    });
    expect(store.auth.isAuthenticated).toBe(false);
    spy.mockRestore();
  });
});

describe('register', () => {
  const input = {
    name: 'Ada',
    surname: 'L',
    email: 'ada@example.test',
    phone: '+49 151 23456789',
    phoneE164: '+4915123456789',
    password: 'Secret1',
    password_confirmation: 'Secret1',
  };

  it('signs in and records emailVerified', async () => {
    const api = new FakeApi()
      .route(account.register, ok({ emailVerified: false }))
      .route(account.profile, profileReply);
    const { store } = makeStore(api);
    expect(await store.auth.register(input)).toEqual({ ok: true });
    expect(api.last(account.register)?.data).toMatchObject(input);
    expect(store.auth).toMatchObject({ isAuthenticated: true, emailVerified: false });
    expect(localStorage.getItem('auth_session')).toBe('1');
  });

  it('maps server field names onto the form, shown once there: no toast, no stored error for the next page', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const api = new FakeApi().route(
      account.register,
      errorReply('validation_failed', 'Please check the form', {
        name: ['Too long'],
        surname: ['Bad'],
        password_confirmation: ['Mismatch'],
        email: ['Taken'],
        phone: ['Invalid'],
      }),
    );
    const { store } = makeStore(api);
    const result = await store.auth.register(input);
    expect(result).toEqual({
      ok: false,
      message: 'Please check the form',
      fieldErrors: {
        firstName: 'Too long',
        lastName: 'Bad',
        confirmPassword: 'Mismatch',
        email: 'Taken',
        phone: 'Invalid',
      },
    });
    expect(store.ui.toasts).toEqual([]);
    expect(store.auth.error).toBeNull();
  });

  it('falls back to "Registration failed"', async () => {
    // Broken on purpose: an ERROR envelope sent with 200, without a message.
    const { store } = makeStore(new FakeApi().routeRaw(account.register, { status: 200, data: { status: 'ERROR' } }));
    expect(await store.auth.register(input)).toMatchObject({ ok: false, message: 'Registration failed' });
  });
});

describe('logout', () => {
  it('clears the state and toasts "Logged out successfully"', async () => {
    localStorage.setItem('auth_session', '1');
    localStorage.setItem('token', 't');
    const { store } = makeStore(new FakeApi().route(account.logout, ok({})));
    await store.auth.logout();
    expect(store.auth.isAuthenticated).toBe(false);
    expect(localStorage.getItem('token')).toBeNull();
    expect(store.ui.toasts.map((t) => t.message)).toEqual(['Logged out successfully']);
  });

  it('clears the state even when the call fails, and says so', async () => {
    localStorage.setItem('auth_session', '1');
    const { store } = makeStore(new FakeApi().route(account.logout, 'network'));
    await store.auth.logout();
    expect(store.auth.isAuthenticated).toBe(false);
    expect(store.auth.error).toBe('Logout failed');
    expect(store.ui.toasts.map((t) => t.message)).toEqual(['Failed to log out']);
  });
});

describe('password reset', () => {
  it('request: sends the email as a query and toasts the confirmation', async () => {
    const api = new FakeApi().route(account.requestPasswordResetLink, ok({}));
    const { store } = makeStore(api);
    expect(await store.auth.requestPasswordReset('ada@example.test')).toEqual({ ok: true });
    expect(api.last(account.requestPasswordResetLink)?.params).toMatchObject({ email: 'ada@example.test' });
    expect(store.ui.toasts.map((t) => t.message)).toEqual(['Password reset link sent. Please check your email.']);
  });

  it('request: a non-OK status is an error with its message, else "Failed to send reset email"', async () => {
    // Broken on purpose: ERROR envelopes sent with 200, with a message and then without one.
    const api = new FakeApi().routeRaw(account.requestPasswordResetLink, {
      status: 200,
      data: { status: 'ERROR', message: 'Unknown email' },
    });
    const { store } = makeStore(api);
    expect(await store.auth.requestPasswordReset('x@y.z')).toMatchObject({ ok: false, message: 'Unknown email' });
    api.routeRaw(account.requestPasswordResetLink, { status: 200, data: { status: 'ERROR' } });
    expect(await store.auth.requestPasswordReset('x@y.z')).toMatchObject({
      ok: false,
      message: 'Failed to send reset email',
    });
  });

  it('restore: sends token, email and both passwords; fallbacks for server and network failures', async () => {
    const api = new FakeApi().route(account.restorePassword, ok({}));
    const { store } = makeStore(api);
    const body = { token: 'abc', email: 'a@b.c', password: 'Secret1', password_confirmation: 'Secret1' };
    expect(await store.auth.resetPassword(body)).toEqual({ ok: true });
    expect(api.last(account.restorePassword)?.data).toMatchObject(body);
    expect(store.ui.toasts.map((t) => t.message)).toContain('Password reset successfully');
    // Broken on purpose: an ERROR envelope sent with 200, without a message.
    api.routeRaw(account.restorePassword, { status: 200, data: { status: 'ERROR' } });
    expect(await store.auth.resetPassword(body)).toMatchObject({ message: 'Failed to reset password' });
    api.route(account.restorePassword, 'network');
    expect(await store.auth.resetPassword(body)).toMatchObject({ message: 'An error occurred during password reset.' });
  });
});

describe('401 on any call', () => {
  it('sets sessionExpired once, signs out, toasts and sends to Login with the full path when the page needs sign-in', async () => {
    localStorage.setItem('auth_session', '1');
    const navigator = fakeNavigator('/account/profile?tab=1#top');
    const api = new FakeApi().route(account.profile, errorReply('unauthenticated', 'Unauthenticated'));
    const { store } = makeStore(api, navigator);
    await store.profile.fetch();
    await store.packs.load(); // a second 401 after the first changes nothing
    expect(store.auth.sessionExpired).toBe(true);
    expect(store.auth.isAuthenticated).toBe(false);
    expect(navigator.visits).toEqual(['/login?redirect=%2Faccount%2Fprofile%3Ftab%3D1%23top']);
    expect(store.ui.toasts.map((t) => t.message)).toEqual(['Session expired. Please log in again.']);
  });

  it('on a public page it signs out quietly and stays', async () => {
    localStorage.setItem('auth_session', '1');
    const navigator = fakeNavigator('/pricing');
    const api = withCatalog(new FakeApi()).route(endpoints.catalog.packs, errorReply('unauthenticated', 'x'));
    const { store } = makeStore(api, navigator);
    await store.packs.load();
    expect(store.auth.isAuthenticated).toBe(false);
    expect(navigator.visits).toEqual([]);
    expect(store.ui.toasts).toHaveLength(0);
  });
});

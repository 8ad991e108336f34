import { endpoints } from '@imagestudio/contracts';
import { ApiClient } from '../lib/api/api-client';
import { errorReply, FakeApi, fakeNavigator, makeStore, okPayload, type ReplyOf } from '../test/fake-api';
import { batchAcceptedFixture, languagesFixture } from '../test/fixtures';

beforeEach(() => {
  localStorage.clear();
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

// A call the app makes only when asked (never while the store starts), so its failure is the only one.
const thing = endpoints.batches.get;

/** Calls `thing` from the page `start` while the API answers it with `reply`, or as the function `reply` sets up. */
async function failWith(reply: ReplyOf<typeof thing> | ((api: FakeApi) => FakeApi), start = '/pricing') {
  const navigator = fakeNavigator(start);
  const api = new FakeApi();
  if (typeof reply === 'function') reply(api);
  else api.route(thing, reply, { id: 'thing' });
  const { store } = makeStore(api, navigator);
  await store.api.call(thing, { params: { id: 'thing' } }).catch(() => undefined);
  return { store, navigator, toasts: store.ui.toasts.map((t) => [t.kind, t.message]) };
}

describe('error catalogue: what each failure status does', () => {
  it('no response: "Network error. Please check your connection."', async () => {
    expect((await failWith('network')).toasts).toEqual([['error', 'Network error. Please check your connection.']]);
  });

  it('403 unverified email: sends to /email-verification with the current page as redirect', async () => {
    const { navigator, toasts } = await failWith(
      errorReply('email_not_verified', 'Your email address is not verified.'),
      '/services/upscale?x=1',
    );
    expect(navigator.visits).toEqual(['/email-verification?redirect=%2Fservices%2Fupscale%3Fx%3D1']);
    expect(toasts).toEqual([]);
  });

  it('other 403: toast with the server message, else "Access forbidden"', async () => {
    expect((await failWith(errorReply('csrf_invalid', 'Invalid CSRF token'))).toasts).toEqual([
      ['error', 'Invalid CSRF token'],
    ]);
    expect((await failWith(errorReply('forbidden'))).toasts).toEqual([['error', 'Access forbidden']]);
  });

  it('422: logged only', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { toasts, navigator } = await failWith(errorReply('validation_failed', '', { email: ['bad'] }));
    expect(toasts).toEqual([]);
    expect(navigator.visits).toEqual([]);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('429: "Too many requests. Please wait a moment."', async () => {
    expect((await failWith(errorReply('rate_limited'))).toasts).toEqual([
      ['warning', 'Too many requests. Please wait a moment.'],
    ]);
  });

  it.each([
    [500, errorReply('internal_error')],
    // Broken on purpose: a 502 comes from the proxy in front of the API, with its own HTML page.
    [502, (api: FakeApi) => api.routeRaw(thing, { status: 502, data: '<html><h1>502 Bad Gateway</h1></html>' })],
    [503, errorReply('service_unavailable')],
  ])('%i: "Server error. Please try again later."', async (_status, reply) => {
    expect((await failWith(reply)).toasts).toEqual([['error', 'Server error. Please try again later.']]);
  });

  it('a call that opts out of the catalogue gets the error and nothing else happens', async () => {
    const { store } = makeStore(new FakeApi().route(thing, errorReply('internal_error', 'boom'), { id: 'thing' }));
    await expect(store.api.call(thing, { params: { id: 'thing' } }, { skipErrorHandling: true })).rejects.toMatchObject(
      {
        status: 500,
        message: 'boom',
        code: 'internal_error',
      },
    );
    expect(store.ui.toasts).toEqual([]);
  });
});

describe('API client', () => {
  function client(api: FakeApi, onError = jest.fn()) {
    return new ApiClient(
      { commonParams: () => ({ currency: 'USD', lang_id: 2 }), onError },
      { baseURL: '/api', timeoutMs: 6000, transport: api.transport },
    );
  }

  it('adds currency and lang_id: query on GET, body on POST/PUT, appended to form data', async () => {
    const api = new FakeApi()
      .route(endpoints.jobs.list, okPayload({ items: [], page: 2, per_page: 20, total: 0, last_page: 1 }))
      .route(
        endpoints.apiKeys.create,
        okPayload({
          id: 'k1',
          created_at: '2026-11-25T10:00:00Z',
          name: 'x',
          prefix: 'is_live',
          last4: 'abcd',
          expires_at: null,
          key: 'is_live_secret',
        }),
      )
      .route(endpoints.account.restorePassword, { status: 200, data: { status: 'OK' } })
      .route(endpoints.apiKeys.rotateWebhookSecret, okPayload({ secret: 'whsec_1' }))
      .route(endpoints.batches.create, okPayload(batchAcceptedFixture()));
    const c = client(api);
    await c.call(endpoints.jobs.list, { query: { page: 2 } });
    await c.call(endpoints.apiKeys.create, { body: { name: 'x' } });
    const restore = { token: 't', email: 'a@b.c', password: 'p', password_confirmation: 'p' };
    await c.call(endpoints.account.restorePassword, { body: restore });
    await c.call(endpoints.apiKeys.rotateWebhookSecret);
    expect(api.last(endpoints.jobs.list)?.params).toEqual({ currency: 'USD', lang_id: 2, page: 2 });
    expect(api.last(endpoints.apiKeys.create)?.data).toEqual({ currency: 'USD', lang_id: 2, name: 'x' });
    expect(api.last(endpoints.account.restorePassword)?.data).toEqual({ currency: 'USD', lang_id: 2, ...restore });
    expect(api.last(endpoints.apiKeys.rotateWebhookSecret)?.data).toEqual({ currency: 'USD', lang_id: 2 });

    const form = new FormData();
    form.append('file', 'bytes');
    await c.call(endpoints.batches.create, { body: form });
    const sent = api.last(endpoints.batches.create)?.data as FormData;
    expect(sent.get('currency')).toBe('USD');
    expect(sent.get('lang_id')).toBe('2');
    expect(sent.get('file')).toBe('bytes');
  });

  it('lets a call opt out of the common parameters', async () => {
    const api = new FakeApi().route(endpoints.catalog.languages, okPayload(languagesFixture));
    await client(api).call(endpoints.catalog.languages, {}, { skipCommonParams: true });
    expect(api.last(endpoints.catalog.languages)?.params).toEqual({});
  });

  it('sends the XSRF cookie back as X-XSRF-TOKEN, and never an Authorization header (a stale stored token included)', async () => {
    document.cookie = 'XSRF-TOKEN=abc%20123; path=/';
    localStorage.setItem('token', 'stale');
    const api = new FakeApi().route(endpoints.account.logout, { status: 200, data: { status: 'OK' } });
    await client(api).call(endpoints.account.logout);
    expect(api.last(endpoints.account.logout)?.headers).toMatchObject({ 'x-xsrf-token': 'abc 123' });
    expect(api.last(endpoints.account.logout)?.headers).not.toHaveProperty('authorization');
  });

  it('uses the /api base path, cookies and a 6000 ms timeout', () => {
    const c = client(new FakeApi());
    expect(c).toMatchObject({ baseURL: '/api', timeoutMs: 6000 });
  });

  it('an error without a response (offline, timeout) is a network error', async () => {
    const onError = jest.fn();
    const api = new FakeApi().route(endpoints.catalog.settings, 'network');
    await expect(client(api, onError).call(endpoints.catalog.settings)).rejects.toMatchObject({ kind: 'network' });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ kind: 'network' }));
  });
});

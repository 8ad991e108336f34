import { endpoints } from '@imagestudio/contracts';
import { ApiClient } from '../lib/api/api-client';
import { FakeApi, fakeNavigator, makeStore } from '../test/fake-api';

beforeEach(() => {
  localStorage.clear();
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

const error = (status: number, body: object = {}) => ({ status, data: { status: 'ERROR', message: '', ...body } });

// A call the app makes only when asked (never while the store starts), so its failure is the only one.
const thing = endpoints.batches.get;

async function failWith(reply: Parameters<FakeApi['on']>[1], start = '/pricing') {
  const navigator = fakeNavigator(start);
  const api = new FakeApi().on('GET /batches/thing', reply);
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
      error(403, { message: 'Your email address is not verified.', code: 'email_not_verified' }),
      '/services/upscale?x=1',
    );
    expect(navigator.visits).toEqual(['/email-verification?redirect=%2Fservices%2Fupscale%3Fx%3D1']);
    expect(toasts).toEqual([]);
  });

  it('other 403: toast with the server message, else "Access forbidden"', async () => {
    expect((await failWith(error(403, { message: 'Invalid CSRF token', code: 'csrf_invalid' }))).toasts).toEqual([
      ['error', 'Invalid CSRF token'],
    ]);
    expect((await failWith(error(403))).toasts).toEqual([['error', 'Access forbidden']]);
  });

  it('422: logged only', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { toasts, navigator } = await failWith(error(422, { errors: { email: ['bad'] } }));
    expect(toasts).toEqual([]);
    expect(navigator.visits).toEqual([]);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('429: "Too many requests. Please wait a moment."', async () => {
    expect((await failWith(error(429))).toasts).toEqual([['warning', 'Too many requests. Please wait a moment.']]);
  });

  it.each([500, 502, 503])('%i: "Server error. Please try again later."', async (status) => {
    expect((await failWith(error(status))).toasts).toEqual([['error', 'Server error. Please try again later.']]);
  });

  it('a call that opts out of the catalogue gets the error and nothing else happens', async () => {
    const { store } = makeStore(
      new FakeApi().on('GET /batches/thing', error(500, { message: 'boom', code: 'internal_error' })),
    );
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
      .on('GET /jobs', { status: 200, data: { status: 'OK' } })
      .on('POST /user/api-keys', { status: 200, data: { status: 'OK' } })
      .on('PUT /user/restore-password', { status: 200, data: { status: 'OK' } })
      .on('POST /user/webhook-secret/rotate', { status: 200, data: { status: 'OK' } })
      .on('POST /batches', { status: 200, data: { status: 'OK' } });
    const c = client(api);
    await c.call(endpoints.jobs.list, { query: { page: 2 } });
    await c.call(endpoints.apiKeys.create, { body: { name: 'x' } });
    const restore = { token: 't', email: 'a@b.c', password: 'p', password_confirmation: 'p' };
    await c.call(endpoints.account.restorePassword, { body: restore });
    await c.call(endpoints.apiKeys.rotateWebhookSecret);
    expect(api.last('GET /jobs')?.params).toEqual({ currency: 'USD', lang_id: 2, page: 2 });
    expect(api.last('POST /user/api-keys')?.data).toEqual({ currency: 'USD', lang_id: 2, name: 'x' });
    expect(api.last('PUT /user/restore-password')?.data).toEqual({ currency: 'USD', lang_id: 2, ...restore });
    expect(api.last('POST /user/webhook-secret/rotate')?.data).toEqual({ currency: 'USD', lang_id: 2 });

    const form = new FormData();
    form.append('file', 'bytes');
    await c.call(endpoints.batches.create, { body: form });
    const sent = api.last('POST /batches')?.data as FormData;
    expect(sent.get('currency')).toBe('USD');
    expect(sent.get('lang_id')).toBe('2');
    expect(sent.get('file')).toBe('bytes');
  });

  it('lets a call opt out of the common parameters', async () => {
    const api = new FakeApi().on('GET /languages', { status: 200, data: { status: 'OK' } });
    await client(api).call(endpoints.catalog.languages, {}, { skipCommonParams: true });
    expect(api.last('GET /languages')?.params).toEqual({});
  });

  it('sends the XSRF cookie back as X-XSRF-TOKEN, and never an Authorization header (a stale stored token included)', async () => {
    document.cookie = 'XSRF-TOKEN=abc%20123; path=/';
    localStorage.setItem('token', 'stale');
    const api = new FakeApi().on('POST /logout', { status: 200, data: { status: 'OK' } });
    await client(api).call(endpoints.account.logout);
    expect(api.last('POST /logout')?.headers).toMatchObject({ 'x-xsrf-token': 'abc 123' });
    expect(api.last('POST /logout')?.headers).not.toHaveProperty('authorization');
  });

  it('uses the /api base path, cookies and a 6000 ms timeout', () => {
    const c = client(new FakeApi());
    expect(c).toMatchObject({ baseURL: '/api', timeoutMs: 6000 });
  });

  it('an error without a response (offline, timeout) is a network error', async () => {
    const onError = jest.fn();
    const api = new FakeApi().on('GET /settings', 'network');
    await expect(client(api, onError).call(endpoints.catalog.settings)).rejects.toMatchObject({ kind: 'network' });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ kind: 'network' }));
  });
});

import { endpoints } from '@imagestudio/contracts';
import { ApiClient } from './api-client';
import type { HttpRequest, HttpResponse } from './transport';

/** A transport whose replies the test releases one by one, counting what was sent. */
function heldTransport() {
  const sent: HttpRequest[] = [];
  const waiting: Array<(response: HttpResponse) => void> = [];
  const transport = (request: HttpRequest) => {
    sent.push(request);
    return new Promise<HttpResponse>((resolve) => waiting.push(resolve));
  };
  const answerAll = (data: unknown = { status: 'OK', payload: {} }) => {
    for (const resolve of waiting.splice(0)) resolve({ status: 200, data });
  };
  return { sent, transport, answerAll };
}

function client(transport: (request: HttpRequest) => Promise<HttpResponse>, reuseMs = 5000) {
  return new ApiClient(
    { commonParams: () => ({ currency: 'EUR' }), onError: () => undefined },
    { baseURL: '', timeoutMs: 1000, transport, reusable: [endpoints.tools.status.path], reuseMs },
  );
}

describe('ApiClient: one request for the same GET', () => {
  it('shares one reply among identical GETs on their way at the same time', async () => {
    const net = heldTransport();
    const api = client(net.transport);
    const calls = [
      api.call(endpoints.tools.status),
      api.call(endpoints.tools.status),
      api.call(endpoints.tools.status),
    ];
    expect(net.sent).toHaveLength(1);
    net.answerAll({ status: 'OK', payload: { shared: true } });
    const replies = await Promise.all(calls);
    expect(replies.map((r) => r.payload)).toEqual([{ shared: true }, { shared: true }, { shared: true }]);
  });

  it('sends GETs that differ in their query on their own', async () => {
    const net = heldTransport();
    const api = client(net.transport);
    void api.call(endpoints.catalog.localizations, { query: { lang_id: 1 } }, { skipCommonParams: true });
    void api.call(endpoints.catalog.localizations, { query: { lang_id: 2 } }, { skipCommonParams: true });
    expect(net.sent).toHaveLength(2);
    net.answerAll();
  });

  it('answers a reusable GET from the reply of moments ago, and asks again after a state-changing call', async () => {
    const net = heldTransport();
    const api = client(net.transport);
    const first = api.call(endpoints.tools.status);
    net.answerAll();
    await first;
    await api.call(endpoints.tools.status);
    expect(net.sent).toHaveLength(1);
    document.cookie = 'XSRF-TOKEN=t';
    const logout = api.call(endpoints.account.logout);
    await Promise.resolve();
    net.answerAll();
    await logout;
    const again = api.call(endpoints.tools.status);
    expect(net.sent.map((r) => r.url)).toEqual(['/tools/status', '/logout', '/tools/status']);
    net.answerAll();
    await again;
  });

  it('asks again once the reuse time has passed, and never reuses paths not listed', async () => {
    const net = heldTransport();
    const api = client(net.transport, 0);
    for (let i = 0; i < 2; i += 1) {
      const status = api.call(endpoints.tools.status);
      const settings = api.call(endpoints.catalog.settings);
      net.answerAll();
      await Promise.all([status, settings]);
    }
    expect(net.sent).toHaveLength(4);
  });
});

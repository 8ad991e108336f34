import http from 'node:http';
import type { Agent } from 'supertest';
import type { AddressInfo } from 'node:net';
import { createTestContext, type TestContext } from '../../test/harness';
import { cookieHeader, verifiedUser, xsrfCookie } from '../../test/auth-helpers';
import { localServer, type LocalServer } from '../../test/local-server';
import { createKey } from '../api-keys/api-keys.service';
import { solidImage } from './test-images';

/**
 * Refused uploads are answered, never reset: a client reads the 429 and its Retry-After even when the refusal
 * comes while its body is still arriving. In-flight limits: UPLOAD_MAX_PER_API_KEY per key, UPLOAD_MAX_PER_USER
 * per account for the browser.
 */

let t: TestContext;
let server: LocalServer;

beforeAll(async () => {
  t = await createTestContext({
    JOB_SUBMIT_RATE_PER_MINUTE: '1000',
    API_KEY_RATE_PER_MINUTE: '1000',
    UPLOAD_MAX_PER_USER: '2',
    UPLOAD_MAX_PER_API_KEY: '8',
  });
  server = localServer(t.app);
  await server.listen();
});

afterAll(async () => {
  await server.close();
  await t.close();
});

async function keyOf(userId: string): Promise<string> {
  return (await createKey(t.ctx, userId, { name: 'script' })).key;
}

/** A multipart body with one image field of `bytes` bytes (a PNG followed by filler the route never gets to). */
function multipart(image: Buffer, bytes: number): { body: Buffer; type: string } {
  const boundary = 'x-upload-refusal-test';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const filler = Buffer.alloc(Math.max(0, bytes - image.length), 0);
  return { body: Buffer.concat([head, image, filler, tail]), type: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Starts an upload whose body is left unfinished (headers and a first chunk only): it holds its in-flight slot
 * until `end` is called. Resolves once the server has admitted it (it answers only if it refuses).
 */
function heldUpload(headers: Record<string, string>): { refused: Promise<number | null>; end(): void } {
  const { port } = server.server.address() as AddressInfo;
  const req = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/tools/remove-background',
    headers: { ...headers, 'Content-Type': 'multipart/form-data; boundary=b', 'Content-Length': '5000000' },
  });
  req.on('error', () => {});
  const refused = new Promise<number | null>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? null);
    });
    setTimeout(() => resolve(null), 700);
  });
  req.write('--b\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\n');
  req.write(Buffer.alloc(64 * 1024));
  return { refused, end: () => req.destroy() };
}

/** The headers a signed-in browser sends with an upload: its cookies and its XSRF token. */
function browserHeaders(agent: Agent): Record<string, string> {
  const cookie = cookieHeader(agent);
  const xsrf = xsrfCookie(agent) ?? '';
  return { Cookie: cookie, 'X-XSRF-TOKEN': xsrf };
}

describe('refused uploads', () => {
  it('answers every one of 40 concurrent uploads from one customer: no connection reset', async () => {
    const { user } = await verifiedUser(t, { balanceTokens: 100 });
    const key = await keyOf(user.id);
    const { body, type } = multipart(await solidImage('png', 64, 64), 15 * 1024 * 1024);
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, () =>
        fetch(server.url('/api/tools/remove-background'), {
          method: 'POST',
          headers: { 'X-Api-Key': key, 'Content-Type': type },
          body,
        }).then(
          async (res) => ({ status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() }),
          (err: Error & { cause?: { code?: string } }) => ({ error: err.cause?.code ?? err.message }),
        ),
      ),
    );
    const errors = outcomes.filter((o) => 'error' in o);
    expect(errors).toEqual([]);
    const refused = outcomes.filter((o) => 'status' in o && o.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const o of refused) expect(Number((o as { retryAfter: string }).retryAfter)).toBeGreaterThan(0);
  }, 60_000);

  it('lets an API key run UPLOAD_MAX_PER_API_KEY uploads at once, a browser session UPLOAD_MAX_PER_USER', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 100 });
    const key = await keyOf(user.id);
    const keyed = Array.from({ length: 8 }, () => heldUpload({ 'X-Api-Key': key }));
    expect(await Promise.all(keyed.map((u) => u.refused))).toEqual(Array(8).fill(null));
    const ninth = heldUpload({ 'X-Api-Key': key });
    expect(await ninth.refused).toBe(429);
    // Another key of the same account has its own eight.
    const other = heldUpload({ 'X-Api-Key': await keyOf(user.id) });
    expect(await other.refused).toBeNull();

    // The browser: two at once per account.
    const browser = browserHeaders(agent);
    const sessions = [heldUpload(browser), heldUpload(browser)];
    expect(await Promise.all(sessions.map((u) => u.refused))).toEqual([null, null]);
    expect(await heldUpload(browser).refused).toBe(429);

    for (const u of [...keyed, ninth, other, ...sessions]) u.end();
  });

  it('tells an API client its limits in /v1.0/account', async () => {
    const { user } = await verifiedUser(t, { balanceTokens: 1 });
    const res = await t
      .agent()
      .get('/v1.0/account')
      .set('X-Api-Key', await keyOf(user.id))
      .expect(200);
    expect(res.body.data.attributes.limits).toEqual({
      requests_per_minute: 1000,
      uploads_in_flight_per_key: 8,
    });
  });
});

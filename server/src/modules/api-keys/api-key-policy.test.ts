import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { API_KEY_MESSAGES, ROUTES } from '@imagestudio/contracts';
import type { Db } from '../../lib/db';
import { AppError } from '../../lib/errors';
import { memoryRateLimits, testConfig, unreachable } from '../../test/fakes';
import { apiKeyAuth, apiKeyMayCall, keyInQuery, presentedKey } from './api-key-auth';

/** What an API key may call, and the refusals that come before any key is looked up (no database here). */

interface FakeRequest {
  method: string;
  path: string;
  ip: string;
  headers: Record<string, string>;
  query: Record<string, unknown>;
}

const request = (extra: Partial<FakeRequest> = {}): Request =>
  ({ method: 'GET', path: '/jobs', ip: '203.0.113.7', headers: {}, query: {}, ...extra }) as unknown as Request;

/** Runs the middleware once; resolves with what it passed to next(). */
function run(handler: RequestHandler, req: Request): Promise<unknown> {
  return new Promise((resolve) => handler(req, {} as Response, ((err?: unknown) => resolve(err)) as NextFunction));
}

describe('apiKeyMayCall', () => {
  const concrete = (path: string) => path.replace(/\{\w+\}/g, '0f1e2d3c');

  it('lets a key call exactly the routes the table marks `key`', () => {
    for (const route of ROUTES) {
      const allowed = apiKeyMayCall(route.method.toUpperCase(), concrete(route.path));
      expect([route.method, route.path, allowed]).toEqual([route.method, route.path, route.auth === 'key']);
    }
  });

  it('treats HEAD as GET, ignores a trailing slash and letter case, and matches whole segments only', () => {
    expect(apiKeyMayCall('HEAD', '/jobs/abc')).toBe(true);
    expect(apiKeyMayCall('GET', '/jobs/abc/')).toBe(true);
    expect(apiKeyMayCall('POST', '/Tools/Upscale')).toBe(true);
    expect(apiKeyMayCall('GET', '/jobs/abc/def')).toBe(false);
    expect(apiKeyMayCall('DELETE', '/batches/abc')).toBe(false);
    expect(apiKeyMayCall('POST', '/user/api-keys')).toBe(false);
    expect(apiKeyMayCall('POST', '/deposit/checkout')).toBe(false);
  });
});

describe('where a key is read from', () => {
  it('takes a Bearer token first, then X-Api-Key, trimmed; blank headers present no key', () => {
    const both = { authorization: 'Bearer isk_live_a', 'x-api-key': 'isk_live_b' };
    expect(presentedKey(request({ headers: both }))).toBe('isk_live_a');
    expect(presentedKey(request({ headers: { 'x-api-key': '  isk_live_b ' } }))).toBe('isk_live_b');
    expect(presentedKey(request({ headers: { authorization: 'Basic abc', 'x-api-key': ' ' } }))).toBeUndefined();
  });

  it('spots a key in the query by the parameter name or by the value shape', () => {
    expect(keyInQuery(request({ query: { api_key: 'x' } }))).toBe(true);
    expect(keyInQuery(request({ query: { 'Access-Token': 'x' } }))).toBe(true);
    expect(keyInQuery(request({ query: { q: ['a', 'isk_live_zzz'] } }))).toBe(true);
    expect(keyInQuery(request({ query: { page: '2', q: 'cats' } }))).toBe(false);
  });
});

describe('apiKeyAuth before the lookup', () => {
  const FAILURES = 3;

  function middleware() {
    const rateLimits = memoryRateLimits();
    const config = testConfig({ API_KEY_FAILURES_PER_IP_PER_MINUTE: String(FAILURES) });
    const handler = apiKeyAuth({ config, db: unreachable<Db>('the database'), services: { rateLimits } });
    return { handler, rateLimits };
  }

  it('passes a request without a key on to the session, untouched', async () => {
    const { handler } = middleware();
    const req = request();
    expect(await run(handler, req)).toBeUndefined();
    expect(req.apiKeyId).toBeUndefined();
  });

  it('refuses a key sent in the URL whatever the route', async () => {
    const { handler } = middleware();
    const err = (await run(handler, request({ path: '/health', query: { apikey: 'isk_live_x' } }))) as AppError;
    expect([err.status, err.message]).toEqual([401, API_KEY_MESSAGES.keyInUrl]);
  });

  it('answers 401 for a key that is not ours without looking it up, and counts it against the address', async () => {
    const { handler, rateLimits } = middleware();
    const err = (await run(handler, request({ headers: { 'x-api-key': 'sk_test_123' } }))) as AppError;
    expect([err.status, err.message]).toEqual([401, API_KEY_MESSAGES.invalidKey]);
    expect((await rateLimits.limiter('apiKeyFailPerIp')?.get('203.0.113.7'))?.consumedPoints).toBe(1);
  });

  it('cuts an address off with 429 once its failures are used up; another address is unaffected', async () => {
    const { handler } = middleware();
    const guess = (ip: string) => run(handler, request({ ip, headers: { authorization: 'Bearer guess' } }));
    for (let i = 0; i < FAILURES; i++) expect(((await guess('198.51.100.1')) as AppError).status).toBe(401);
    const limited = (await guess('198.51.100.1')) as AppError;
    expect(limited.status).toBe(429);
    expect(Number(limited.headers?.['Retry-After'])).toBeGreaterThan(0);
    expect(((await guess('198.51.100.2')) as AppError).status).toBe(401);
  });
});

import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import type supertest from 'supertest';
import { API_KEY_MESSAGES, ROUTES, type Route } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { verifiedUser } from '../../test/auth-helpers';
import { publicRouters, rawBodyRouters } from '../index';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ JOB_SUBMIT_RATE_PER_MINUTE: '1000' });
});
afterAll(() => t.close());

const FORBIDDEN = { status: 'ERROR', code: 'forbidden', message: API_KEY_MESSAGES.notAllowed };

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** `method /path` (table form) of the routes these routers mount. */
function mounted(routers: Router[]): Set<string> {
  const found = new Set<string>();
  for (const router of routers)
    for (const layer of router.stack as Layer[])
      for (const method of Object.keys(layer.route?.methods ?? {}))
        found.add(`${method} ${layer.route!.path.replace(/:(\w+)/g, '{$1}')}`);
  return found;
}

const call = (route: Route, headers: Record<string, string>): supertest.Test => {
  const agent = t.agent() as unknown as Record<string, (url: string) => supertest.Test>;
  const test = agent[route.method]!(`/api${route.path.replace(/\{\w+\}/g, () => randomUUID())}`).set(headers);
  return route.method === 'get' ? test : test.send({});
};

describe('the API-key policy is the auth field of each route', () => {
  it('walks the route table: `key` routes accept a key, every other route refuses it', async () => {
    const { agent } = await verifiedUser(t, { balanceTokens: 5 });
    const { key } = (await agent.post('/api/user/api-keys').send({ name: 'walk' }).expect(201)).body.payload as {
      key: string;
    };
    const withKey = { Authorization: `Bearer ${key}` };
    // Served before authentication (probes, catalogue, Stripe, the test checkout): these never look at a key.
    const beforeAuth = mounted([...rawBodyRouters(t.ctx), ...publicRouters(t.ctx)]);
    const seen = { key: 0, refused: 0, beforeAuth: 0 };
    for (const route of ROUTES) {
      const name = `${route.method} ${route.path}`;
      const res = await call(route, withKey);
      if (route.auth === 'key') {
        // Authenticated by the key: neither 401 (no user) nor 403 (refused); a 404 or 422 for the made-up input.
        expect([name, res.status === 401 || res.status === 403]).toEqual([name, false]);
        seen.key += 1;
      } else if (beforeAuth.has(name)) {
        expect([name, route.auth]).toEqual([name, 'public']);
        expect([name, res.status]).toEqual([name, (await call(route, {})).status]);
        seen.beforeAuth += 1;
      } else {
        expect([name, res.status, res.body]).toEqual([name, 403, FORBIDDEN]);
        seen.refused += 1;
      }
    }
    expect(seen.key).toBeGreaterThanOrEqual(15);
    expect(seen.refused).toBeGreaterThanOrEqual(30);
    expect(seen.beforeAuth).toBeGreaterThanOrEqual(10);
  }, 60_000);
});

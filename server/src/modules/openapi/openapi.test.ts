import type { Router } from 'express';
import { z } from 'zod';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ROUTES } from '@imagestudio/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { apiRouters, publicRouters, rawBodyRouters } from '../index';
import { removeBgRouter } from '../removebg-compat';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
}

/** Every `METHOD /path` the feature routers mount under /api, in OpenAPI's path form. */
function mountedRoutes(routers: Router[]): string[] {
  const found = new Set<string>();
  for (const router of routers) {
    for (const layer of router.stack as Layer[]) {
      if (!layer.route) continue;
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const path of paths) {
        for (const method of Object.keys(layer.route.methods)) {
          if (method !== '_all') found.add(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
        }
      }
    }
  }
  return [...found].sort();
}

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const res = await t.agent().get('/api/openapi.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const doc = res.body as {
      openapi: string;
      components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator does reject a broken document (a path item with an unknown response code form).
    const broken = JSON.parse(JSON.stringify(doc)) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    broken.paths['/health']!.get!.responses = { nope: {} };
    expect((await new Validator().validate(broken as never)).valid).toBe(false);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'apiKey',
      'bearer',
      'removeBgApiKey',
      'session',
      'xsrf',
    ]);
    // Every $ref points at a schema that exists.
    const refs = [...JSON.stringify(doc).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    for (const ref of refs) expect([ref, doc.components.schemas[ref] !== undefined]).toEqual([ref, true]);
  });

  it('describes every mounted route, and only those', async () => {
    const doc = (await t.agent().get('/api/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(doc.paths)
      // `servers` is a path item's own server (the /v1.0 routes live outside /api), not an operation.
      .flatMap(([path, ops]) =>
        Object.keys(ops).flatMap((method) => (method === 'servers' ? [] : [`${method} ${path}`])),
      )
      .sort();
    const mounted = mountedRoutes([...rawBodyRouters(t.ctx), ...publicRouters(t.ctx), ...apiRouters(t.ctx)]);
    expect(mounted.length).toBeGreaterThan(40);
    // What the routers mount is the route table, entry for entry...
    expect(mounted).toEqual(ROUTES.map((route) => `${route.method} ${route.path}`).sort());
    // ...and the document describes all of it but the operator console, which is not advertised, plus the
    // remove.bg-compatible router mounted at /v1.0 (outside /api).
    const removeBg = mountedRoutes([removeBgRouter(t.ctx)]).map((r) => r.replace(' /', ' /v1.0/'));
    expect(removeBg).toEqual(['get /v1.0/account', 'post /v1.0/improve', 'post /v1.0/removebg']);
    expect(documented).toEqual([...mounted.filter((route) => !route.includes(' /admin/')), ...removeBg].sort());
    expect(mounted.filter((route) => route.includes(' /admin/')).length).toBeGreaterThanOrEqual(15);
  });

  it('marks the operator routes (probes, metrics, the payment provider and the test checkout), and only those', async () => {
    const doc = (await t.agent().get('/api/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { 'x-audience'?: string }>>;
    };
    const operator = Object.entries(doc.paths)
      .flatMap(([path, ops]) =>
        Object.entries(ops)
          .filter(([, op]) => op['x-audience'] === 'operator')
          .map(([method]) => `${method} ${path}`),
      )
      .sort();
    expect(operator).toEqual([
      'get /deposit/stripe-return',
      'get /deposit/test-checkout',
      'get /health',
      'get /metrics',
      'get /ready',
      'post /deposit/test-checkout',
      'post /webhooks/stripe',
    ]);
  });

  it('gives every JSON reply in the route table a schema of its own, never an undescribed payload', async () => {
    // What a type-only placeholder was documented as; no reply may fall back to it again.
    const placeholder = 'See the website client for the exact shape';
    const vague = ROUTES.filter((route) => {
      if (route.reply.kind !== 'json' || !route.reply.payload) return false;
      const schema = z.toJSONSchema(route.reply.payload, { io: 'output', unrepresentable: 'any' }) as Record<
        string,
        unknown
      >;
      // z.unknown() and z.custom() become a schema that says nothing: no type, reference or alternatives.
      const saysNothing = !['type', '$ref', 'anyOf', 'oneOf', 'allOf', 'const', 'enum'].some((k) => k in schema);
      return saysNothing || JSON.stringify(schema).includes(placeholder);
    }).map((route) => `${route.method} ${route.path}`);
    expect(vague).toEqual([]);
    // The operator console's replies are checked above but not published; the document has none of it either.
    const doc = (await t.agent().get('/api/openapi.json').expect(200)).text;
    expect(doc).not.toContain(placeholder);
    const catalog = JSON.parse(doc).paths['/settings'].get.responses['200'].content['application/json'].schema;
    expect(catalog.properties.payload.required).toContain('vat_percent');
  });

  it("documents the developer API's shapes, errors and both auth schemes", async () => {
    const doc = (await t.agent().get('/api/openapi.json').expect(200)).body;
    const upscale = doc.paths['/tools/upscale'].post;
    expect(upscale.security).toEqual([{ bearer: [] }, { apiKey: [] }, { session: [], xsrf: [] }]);
    expect(Object.keys(upscale.responses).sort()).toEqual([
      '200',
      '202',
      '401',
      '402',
      '403',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(Object.keys(upscale.responses['200'].content)).toEqual([
      'application/json',
      'image/png',
      'image/webp',
      'image/jpeg',
    ]);
    expect(upscale.parameters).toContainEqual(expect.objectContaining({ name: 'wait', in: 'query' }));
    const form = upscale.requestBody.content['multipart/form-data'].schema;
    expect(form.required).toEqual(['image', 'factor']);
    expect(Object.keys(form.properties)).toEqual(['image', 'factor', 'output_format', 'model', 'callback_url']);
    const batch = doc.paths['/batches'].post;
    expect(Object.keys(batch.responses).sort()).toEqual(
      ['202', '401', '402', '403', '404', '413', '422', '429', '500', '503'].filter((c) => c !== '404'),
    );
    expect(Object.keys(batch.requestBody.content['multipart/form-data'].schema.properties).slice(0, 3)).toEqual([
      'images',
      'archive',
      'tool',
    ]);
    expect(batch.responses['202'].content['application/json'].schema.properties.payload).toEqual({
      $ref: '#/components/schemas/BatchAccepted',
    });
    expect(Object.keys(doc.paths['/batches/{id}/zip'].get.responses['200'].content)).toEqual(['application/zip']);
    expect(doc.paths['/user/api-keys'].post.security).toEqual([{ session: [], xsrf: [] }]);
    expect(doc.paths['/jobs/{id}'].get.responses['200'].content['application/json'].schema.properties.payload).toEqual({
      $ref: '#/components/schemas/Job',
    });
    expect(doc.components.schemas.Job.required).toContain('results');
    expect(
      doc.paths['/user/ledger'].get.responses['200'].content['application/json'].schema.properties.payload.properties
        .items.items.properties.kind.enum,
    ).toEqual(['free', 'welcome', 'purchase', 'spend', 'refund', 'adjustment', 'reversal']);
  });
});

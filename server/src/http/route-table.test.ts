import express, { Router } from 'express';
import request from 'supertest';
import { z } from 'zod';
import { defineRoute } from '@imagestudio/contracts';
import { errorHandler } from './error-handler';
import { mountRoutes, type EveryRouteMounted, type RouteHandlers } from './route-table';

/** An area of its own, so that adding a route to the real table never changes these expectations. */
const things = {
  list: defineRoute('get /things', {
    tag: 'Things',
    summary: 'Things',
    auth: 'key',
    reply: { kind: 'json', payload: z.object({ count: z.number() }) },
  }),
  csv: defineRoute('get /things.csv', {
    tag: 'Things',
    summary: 'As CSV',
    auth: 'key',
    reply: { kind: 'csv', description: 'id' },
  }),
};

describe('mountRoutes', () => {
  it('mounts each entry with its handler, behind the guard of its auth', async () => {
    const app = express();
    app.use((req, _res, next) => {
      if (req.get('x-user')) req.user = { id: req.get('x-user') } as never;
      next();
    });
    app.use(
      mountRoutes(Router(), things, {
        list: () => ({ count: 2 }),
        csv: ({ res }) => void res.type('text/csv').send('id\n'),
      }),
    );
    app.use(errorHandler);
    await request(app).get('/things').expect(401);
    const page = await request(app).get('/things').set('x-user', 'u1').expect(200);
    expect(page.body).toEqual({ status: 'OK', payload: { count: 2 } });
    await request(app).get('/things.csv').set('x-user', 'u1').expect(200, 'id\n');
  });

  it('refuses a handler for a name the area does not have', () => {
    // @ts-expect-error `lists` is not an entry of the area
    expect(() => mountRoutes(Router(), things, { lists: () => undefined })).toThrow('No route table entry');
  });
});

// Type tests: tsc -b fails when an expectation below no longer holds.

// @ts-expect-error a full handler map without `csv` does not compile
export const incomplete: RouteHandlers<typeof things> = { list: () => ({ count: 0 }) };

// @ts-expect-error a handler must return its entry's payload
export const wrongPayload: RouteHandlers<typeof things> = { list: () => ({ total: 0 }), csv: () => undefined };

const _partial = mountRoutes(Router(), things, { list: () => ({ count: 0 }) });
const _rest = mountRoutes(Router(), things, { csv: ({ res }) => void res.send('') });
// @ts-expect-error routers that leave `things.csv` without a handler fail the table check (as in modules/index.ts)
export const missingOne: EveryRouteMounted<{ things: typeof things }, typeof _partial> = true;
export const allMounted: EveryRouteMounted<{ things: typeof things }, typeof _partial | typeof _rest> = true;

import express, { Router } from 'express';
import request from 'supertest';
import { routes } from '@imagestudio/contracts';
import { errorHandler } from './error-handler';
import { mountRoutes, type EveryRouteMounted, type RouteHandlers } from './route-table';

const tokens = routes.tokens;
const ledgerPage = { items: [], page: 1, has_more: false };

describe('mountRoutes', () => {
  it('mounts each entry with its handler, behind the guard of its auth', async () => {
    const app = express();
    app.use((req, _res, next) => {
      if (req.get('x-user')) req.user = { id: req.get('x-user') } as never;
      next();
    });
    app.use(
      mountRoutes(Router(), tokens, {
        ledger: () => ledgerPage as never,
        ledgerCsv: ({ res }) => void res.type('text/csv').send('id\n'),
      }),
    );
    app.use(errorHandler);
    await request(app).get('/user/ledger').expect(401);
    const page = await request(app).get('/user/ledger').set('x-user', 'u1').expect(200);
    expect(page.body).toEqual({ status: 'OK', payload: ledgerPage });
    await request(app).get('/user/ledger.csv').set('x-user', 'u1').expect(200, 'id\n');
  });

  it('refuses a handler for a name the area does not have', () => {
    // @ts-expect-error `ledgers` is not an entry of routes.tokens
    expect(() => mountRoutes(Router(), tokens, { ledgers: () => undefined })).toThrow('No route table entry');
  });
});

// Type tests: tsc -b fails when an expectation below no longer holds.

// @ts-expect-error a full handler map without `ledgerCsv` does not compile
export const incomplete: RouteHandlers<typeof tokens> = { ledger: () => ledgerPage as never };

const _partial = mountRoutes(Router(), tokens, { ledger: () => ledgerPage as never });
const _whole = mountRoutes(Router(), tokens, {
  ledger: () => ledgerPage as never,
  ledgerCsv: ({ res }) => void res.send(''),
});
// @ts-expect-error routers that leave `tokens.ledgerCsv` without a handler fail the table check (as in modules/index.ts)
export const missingOne: EveryRouteMounted<Pick<typeof routes, 'tokens'>, typeof _partial> = true;
export const allMounted: EveryRouteMounted<Pick<typeof routes, 'tokens'>, typeof _partial | typeof _whole> = true;

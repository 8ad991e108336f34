import type { RequestHandler, Router } from 'express';
import type { Route } from '@imagestudio/contracts';
import { mountRoute, type RouteHandler } from './route';

/** A table entry's handler, or its handler with the checks that run before it (rate limits, upload budget). */
export type RouteMount<R extends Route> = RouteHandler<R> | { handler: RouteHandler<R>; before: RequestHandler[] };

/**
 * One handler for every entry of an area of the route table (contracts/src/routes), typed by its entry: an
 * entry left without one, or a name the area does not have, does not compile.
 */
export type RouteHandlers<T extends Record<string, Route>> = { [K in keyof T]: RouteMount<T[K]> };

/** Mounts each entry of `table` with its handler (mountRoute: its auth guard, the `before` checks, its parsing). */
export function mountRoutes<T extends Record<string, Route>>(
  router: Router,
  table: T,
  handlers: RouteHandlers<T>,
): void {
  for (const name of Object.keys(table) as (keyof T & string)[]) {
    const mount = handlers[name] as RouteMount<T[typeof name]>;
    if (typeof mount === 'function') mountRoute(router, table[name], mount);
    else mountRoute(router, table[name], mount.handler, { before: mount.before });
  }
}

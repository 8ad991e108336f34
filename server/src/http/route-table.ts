import type { RequestHandler, Router } from 'express';
import type { Route } from '@imagestudio/contracts';
import { mountRoute, type RouteHandler } from './route';

/** A table entry's handler, or its handler with the checks that run before it (rate limits, upload budget). */
export type RouteMount<R extends Route> = RouteHandler<R> | { handler: RouteHandler<R>; before: RequestHandler[] };

/** An area of the route table (contracts/src/routes), or a group inside one (`routes.tools.run`). */
interface RouteGroup {
  readonly [name: string]: Route | RouteGroup;
}

/** One handler for each entry of `T`, typed by its entry (a group's entries by a map of their own). */
export type RouteHandlers<T extends RouteGroup> = {
  [K in keyof T]: T[K] extends Route ? RouteMount<T[K]> : T[K] extends RouteGroup ? RouteHandlers<T[K]> : never;
};

/** A router that mounted the entries `K` of the area `T` (type only): what the table is checked against. */
export type MountedRouter<T, K> = Router & { readonly mounted?: { area: T; names: K } };

const isRoute = (value: Route | RouteGroup): value is Route => typeof value.method === 'string';

function mountAll(router: Router, group: RouteGroup, handlers: Record<string, unknown>): void {
  for (const [name, handler] of Object.entries(handlers)) {
    const entry = group[name];
    if (entry === undefined) throw new Error(`No route table entry "${name}"`);
    if (!isRoute(entry)) mountAll(router, entry, handler as Record<string, unknown>);
    else if (typeof handler === 'function') mountRoute(router, entry, handler as RouteHandler<Route>);
    else {
      const mount = handler as { handler: RouteHandler<Route>; before: RequestHandler[] };
      mountRoute(router, entry, mount.handler, { before: mount.before });
    }
  }
}

/**
 * Mounts entries of one area of the route table with their handlers, in the order the handlers are written
 * (mountRoute: the entry's auth guard, the `before` checks, its parsing). A module that serves only part of an
 * area passes only those; the router it returns names them, and server/src/modules/index.ts checks that the
 * routers together leave no entry of the table without a handler (`UnmountedRoutes`).
 */
export function mountRoutes<T extends RouteGroup, const H extends Partial<RouteHandlers<T>>>(
  router: Router,
  area: T,
  handlers: H & Record<Exclude<keyof H, keyof T>, never>,
): MountedRouter<T, keyof H & keyof T> {
  mountAll(router, area, handlers as Record<string, unknown>);
  return router;
}

/** What a router mounted (never for a router built otherwise, whose `mounted` is not known). */
type Mounted<R> = R extends { readonly mounted?: infer M } ? (unknown extends M ? never : NonNullable<M>) : never;
/** The names `M` mounted of `Area` (an area is matched by its type, as names repeat across areas). */
type NamesOf<M, Area> = M extends { area: infer A; names: infer K }
  ? [A] extends [Area]
    ? [Area] extends [A]
      ? K
      : never
    : never
  : never;
type MountedNames<R, Area> = NamesOf<Mounted<R>, Area>;

/** `area.name` of every entry of `Table` that none of the routers `R` mounts; never when each has a handler. */
export type UnmountedRoutes<Table, R> = {
  [A in keyof Table & string]: `${A}.${Exclude<keyof Table[A], MountedNames<R, Table[A]>> & string}`;
}[keyof Table & string];

/** `true` when every entry of `Table` has a handler in one of the routers `R`; else the names of those without. */
export type EveryRouteMounted<Table, R> = [UnmountedRoutes<Table, R>] extends [never]
  ? true
  : UnmountedRoutes<Table, R>;

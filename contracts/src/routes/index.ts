import { accountRoutes } from './account';
import { adminRoutes } from './admin';
import { apiKeyRoutes } from './api-keys';
import { batchRoutes } from './batches';
import { catalogRoutes } from './catalog';
import { jobRoutes } from './jobs';
import { paymentRoutes } from './payments';
import { removeBgRoutes } from './removebg';
import type { Route } from './route';
import { serviceRoutes } from './service';
import { tokenRoutes } from './tokens';
import { toolRoutes } from './tools';

/**
 * Every /api route, once: its method and path (addresses.ts), who may call it, the schemas of its query, body
 * and reply, and what the OpenAPI document says about it. The server mounts and validates from these entries
 * (server/src/http/route-table.ts, with a handler map per router that must cover the table), the API-key policy
 * is their `auth`, the OpenAPI document is built from them and the client's calls (endpoints.ts) are read from
 * the addresses and typed by them. docs/adding-a-route.md says how to add one.
 */
export const routes = {
  service: serviceRoutes,
  catalog: catalogRoutes,
  account: accountRoutes,
  apiKeys: apiKeyRoutes,
  tokens: tokenRoutes,
  payments: paymentRoutes,
  tools: toolRoutes,
  jobs: jobRoutes,
  batches: batchRoutes,
  admin: adminRoutes,
};

type Nested = Route | { [key: string]: Nested };
const isRoute = (value: Nested): value is Route => typeof (value as Route).method === 'string';
const flatten = (value: Nested): Route[] => (isRoute(value) ? [value] : Object.values(value).flatMap(flatten));

/** The table as one list, in the order above. */
export const ROUTES: readonly Route[] = flatten(routes as unknown as Nested);

/** The remove.bg-compatible routes (mounted at REMOVEBG_BASE), as one list. */
export const REMOVEBG_ROUTES: readonly Route[] = Object.values(removeBgRoutes);

export * from './route';
export { REMOVEBG_BASE, type RouteAddress } from './addresses';
export { removeBgAccountSchema, removeBgErrorsSchema, removeBgResultSchema, removeBgRoutes } from './removebg';
export * from './removebg-fields';
export { endpointPath, endpoints, type Endpoint } from './endpoints';
export type { ToolRoute } from './tools';

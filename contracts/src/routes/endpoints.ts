import { TOOLS, type JobName } from '../tools';
import { addressOf, API_ADDRESSES, toolAddress, type ApiAddresses } from './addresses';
import type { routes } from './index';
import type { PathParams, RouteSpec } from './route';
import type { ToolRoute } from './tools';

/**
 * The route table as the browser calls it: each entry's method and path, read from addresses.ts (the one place
 * they are written) and typed by the whole entry (its params, query, body and reply types). The table itself
 * is imported by type only: its zod schemas stay out of the browser bundle (this module loads no zod).
 */
export interface Endpoint<R extends RouteSpec = RouteSpec> {
  readonly method: R['method'];
  readonly path: R['path'];
  /** Type only: the table entry this endpoint calls. */
  readonly route?: R;
}

type Table = typeof routes;
type EndpointOf<T> = T extends RouteSpec ? Endpoint<T> : never;

/** Every /api entry, by the same area and name as in `routes`; a tool's call by its name in `tools.run`. */
export type Endpoints = {
  [A in keyof ApiAddresses]: { [K in keyof ApiAddresses[A]]: EndpointOf<Table[A][K & keyof Table[A]]> };
} & { tools: { run: Record<JobName, Endpoint<ToolRoute>> } };

const byName = (addresses: Record<string, string>) =>
  Object.fromEntries(Object.entries(addresses).map(([name, address]) => [name, addressOf(address)]));

const table = Object.fromEntries(Object.entries(API_ADDRESSES).map(([area, names]) => [area, byName(names)]));

export const endpoints = {
  ...table,
  tools: { ...table.tools, run: Object.fromEntries(TOOLS.map(({ name }) => [name, addressOf(toolAddress(name))])) },
} as unknown as Endpoints;

/** The endpoint's path with its parameters filled in (each encoded as one path segment). */
export function endpointPath<R extends RouteSpec>(endpoint: Endpoint<R>, params: PathParams<R['path']>): string {
  const values = params as Record<string, string>;
  return endpoint.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? ''));
}

import {
  endpoints,
  ERROR_STATUS,
  type ApiError,
  type ApiOk,
  type Endpoint,
  type ErrorCode,
  type PathParams,
  type RoutePayload,
  type RouteSpec,
} from '@imagestudio/contracts';
import { TransportError, type Transport } from '../lib/api/transport';
import { RootStore } from '../stores';
// In the app the pages that use the signed-in stores bring their code; unit tests read them directly.
import '../stores/signed-in-stores';
import type { AppNavigator } from '../stores';
import {
  countriesFixture,
  currenciesFixture,
  languagesFixture,
  packsFixture,
  settingsFixture,
  staticPagesFixture,
} from './fixtures';

/** One recorded request as the server would see it. */
export interface SeenRequest {
  method: string;
  url: string;
  params: Record<string, unknown>;
  data: unknown;
  headers: Record<string, string>;
}

/** Any reply, whether the contracts allow it or not: for `onPath` and `routeRaw` only. */
export type Reply = { status: number; data?: unknown } | 'network';
type Handler = (req: SeenRequest) => Reply | Promise<Reply>;

/**
 * A reply of one route as the server sends it: the OK envelope typed by the route's reply schema (an image route's
 * Blob), or the error envelope with its message and code; 'network' is no reply at all.
 */
export type RouteReply<R extends RouteSpec> =
  | { status: number; data: (R['reply'] extends { kind: 'webp' } ? Blob : ApiOk<RoutePayload<R>>) | ApiError }
  | 'network';
/** The reply type of an endpoint, for a reply kept in a variable: `let reply: ReplyOf<typeof endpoints.jobs.get>`. */
export type ReplyOf<E> = E extends Endpoint<infer R> ? RouteReply<R> : never;
type RouteHandler<R extends RouteSpec> = (req: SeenRequest) => RouteReply<R> | Promise<RouteReply<R>>;

/** Some or all of a route's path parameters, e.g. `{ id: 'j1' }` for `/jobs/{id}`. */
type SomeParams<R extends RouteSpec> = Partial<PathParams<R['path']>>;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `/jobs/{id}` as a pattern for the request's path: each parameter given in `params` must be that value,
 * any other one is any single path segment.
 */
function pathPattern(path: string, params: Record<string, string | undefined> = {}): RegExp {
  const parts = path.split(/(\{\w+\})/).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (name === undefined) return escape(part);
    const value = params[name];
    return value === undefined ? '[^/]+' : escape(encodeURIComponent(value));
  });
  return new RegExp(`^${parts.join('')}$`);
}

/**
 * A transport standing in for XMLHttpRequest in unit tests: routes "METHOD /path" to handlers
 * and records every request. The real API is exercised by the browser tests in e2e/.
 */
export class FakeApi {
  readonly seen: SeenRequest[] = [];
  private readonly patterns: Array<{ method: string; path: RegExp; handler: Handler }> = [];

  /**
   * Answers one route of the table with a reply typed by the route: a fixture that no longer matches the
   * contracts does not compile. `params` pins path parameters (`{ id: 'j1' }`); those left out match any value.
   */
  route<R extends RouteSpec>(
    endpoint: Endpoint<R>,
    handler: RouteHandler<R> | RouteReply<R>,
    params?: SomeParams<R>,
  ): this {
    return this.add(endpoint.method.toUpperCase(), pathPattern(endpoint.path, params), handler);
  }

  /**
   * Answers one route of the table with a reply the contracts do not allow: only for tests of how the client
   * copes with a server that breaks the contract on purpose (a body that is no envelope, a payload of the wrong
   * shape, an ERROR envelope sent with 200). Everywhere else use `route`, so fixtures stay checked.
   */
  routeRaw<R extends RouteSpec>(endpoint: Endpoint<R>, handler: Handler | Reply, params?: SomeParams<R>): this {
    return this.add(endpoint.method.toUpperCase(), pathPattern(endpoint.path, params), handler);
  }

  /**
   * Answers a path that is not a route of the table, as "METHOD /path": the client's own mechanics (the guest
   * XSRF token from GET /csrf) or a made-up path that tests the transport. A route of the table goes through
   * `route`, whose path and reply are checked against the contracts.
   */
  onPath(route: string, handler: Handler | Reply): this {
    const [method = '', path = ''] = route.split(' ');
    return this.add(method, new RegExp(`^${escape(path)}$`), handler);
  }

  /** Newest first, so a later answer for the same call wins. */
  private add(method: string, path: RegExp, handler: Handler | Reply): this {
    const answer = typeof handler === 'function' ? handler : () => handler;
    this.patterns.unshift({ method, path, handler: answer });
    return this;
  }

  readonly transport: Transport = async (request) => {
    // JSON bodies are copied as the server would receive them; FormData stays as it is.
    const data =
      request.data === undefined || request.data instanceof FormData
        ? request.data
        : (JSON.parse(JSON.stringify(request.data)) as unknown);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    const req: SeenRequest = { method: request.method, url: request.url, params: { ...request.params }, data, headers };
    this.seen.push(req);
    const handler = this.patterns.find((p) => p.method === request.method && p.path.test(request.url))?.handler;
    const reply: Reply = handler
      ? await handler(req)
      : { status: 404, data: { status: 'ERROR', message: 'Not found', code: 'not_found' } };
    // A call its caller aborted while the handler was answering gets no reply, as from XMLHttpRequest.
    if (request.signal?.aborted) throw new TransportError('canceled', true);
    if (reply === 'network') throw new TransportError('Network Error');
    return { status: reply.status, data: reply.data };
  };

  /** The requests made to one route, oldest first; `params` pins path parameters as in `route`. */
  calls<R extends RouteSpec>(endpoint: Endpoint<R>, params?: SomeParams<R>): SeenRequest[] {
    const method = endpoint.method.toUpperCase();
    const path = pathPattern(endpoint.path, params);
    return this.seen.filter((r) => r.method === method && path.test(r.url));
  }

  /** The latest request made to one route; `params` pins path parameters as in `route`. */
  last<R extends RouteSpec>(endpoint: Endpoint<R>, params?: SomeParams<R>): SeenRequest | undefined {
    return this.calls(endpoint, params).at(-1);
  }
}

/** An OK envelope around `payload`, typed so fixtures are checked against the contracts (202: an accepted job). */
export function okPayload<T>(payload: T, status = 200): { status: number; data: { status: 'OK'; payload: T } } {
  return { status, data: { status: 'OK', payload } };
}

/** The error envelope the server sends with `code`, at the HTTP status that code always has. */
export function errorReply(
  code: ErrorCode,
  message = '',
  errors?: Record<string, string[]>,
): { status: number; data: ApiError } {
  return { status: ERROR_STATUS[code], data: { status: 'ERROR', code, message, ...(errors ? { errors } : {}) } };
}

/** A navigator that records where the stores sent the user. */
export function fakeNavigator(
  start = '/',
  needsAuth: (path: string) => boolean = (p) => p.startsWith('/account'),
): AppNavigator & { visits: string[] } {
  const visits: string[] = [];
  let current = new URL(start, 'http://x');
  return {
    visits,
    navigate: (to) => {
      visits.push(to);
      current = new URL(to, 'http://x');
    },
    location: () => ({ pathname: current.pathname, search: current.search, hash: current.hash }),
    fullPath: () => `${current.pathname}${current.search}${current.hash}`,
    requiresAuth: needsAuth,
  };
}

/** The standard catalogue replies a RootStore needs to start. */
export function withCatalog(api: FakeApi): FakeApi {
  const { catalog, account } = endpoints;
  return api
    .route(catalog.languages, okPayload(languagesFixture))
    .route(catalog.localizations, (req) =>
      okPayload<Record<string, string>>(req.params.lang_id === 2 ? { 'shell.nav.home': 'Startseite' } : {}),
    )
    .route(catalog.currencies, okPayload(currenciesFixture))
    .route(catalog.settings, okPayload(settingsFixture()))
    .route(catalog.staticPages, okPayload(staticPagesFixture))
    .route(catalog.packs, okPayload(packsFixture))
    .route(catalog.countries, okPayload(countriesFixture))
    .route(account.isAuth, { status: 200, data: { status: 'OK', authenticated: false } })
    .onPath('GET /csrf', { status: 200, data: { status: 'OK' } });
}

/**
 * A RootStore wired to a FakeApi and a recording navigator. Replies are not reused (reuseMs 0): a test that
 * routes a new answer expects the next call to get it; api-client.test.ts covers the reuse.
 */
export function makeStore(api: FakeApi, navigator = fakeNavigator()) {
  const store = new RootStore({ api: { transport: api.transport, baseURL: '', reuseMs: 0 }, navigator });
  return { store, navigator };
}

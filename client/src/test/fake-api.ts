import {
  endpoints,
  type ApiError,
  type ApiOk,
  type Endpoint,
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

export type Reply = { status: number; data?: unknown } | 'network';
type Handler = (req: SeenRequest) => Reply | Promise<Reply>;

/** A reply of one route: its OK envelope typed by the route's reply schema, an error envelope, or no reply. */
export type RouteReply<R extends RouteSpec> =
  { status: number; data?: ApiOk<RoutePayload<R>> | (Partial<ApiError> & { status: 'ERROR' }) } | 'network';
type RouteHandler<R extends RouteSpec> = (req: SeenRequest) => RouteReply<R> | Promise<RouteReply<R>>;

/** `/jobs/{id}` as a pattern for the request's path (each parameter one path segment). */
const pathPattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`);

const exactly = (path: string) => new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/**
 * A transport standing in for XMLHttpRequest in unit tests: routes "METHOD /path" to handlers
 * and records every request. The real API is exercised by the browser tests in e2e/.
 */
export class FakeApi {
  readonly seen: SeenRequest[] = [];
  /** Newest first: a later `route` or `on` for the same call wins. */
  private readonly patterns: Array<{ method: string; path: RegExp; handler: Handler }> = [];

  /** Answers a made-up path (the client's own mechanics: common parameters, XSRF, timeouts). */
  on(route: string, handler: Handler | Reply): this {
    const [method = '', path = ''] = route.split(' ');
    const answer = typeof handler === 'function' ? handler : () => handler;
    this.patterns.unshift({ method, path: exactly(path), handler: answer });
    return this;
  }

  /**
   * Answers one route of the table, whatever its path parameters, with a reply typed by the route: a fixture
   * that no longer matches the contracts does not compile.
   */
  route<R extends RouteSpec>(endpoint: Endpoint<R>, handler: RouteHandler<R> | RouteReply<R>): this {
    const answer = (typeof handler === 'function' ? handler : () => handler) as Handler;
    this.patterns.unshift({ method: endpoint.method.toUpperCase(), path: pathPattern(endpoint.path), handler: answer });
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
    if (reply === 'network') throw new TransportError('Network Error');
    return { status: reply.status, data: reply.data };
  };

  last(route: string): SeenRequest | undefined {
    const [method, url] = route.split(' ');
    return [...this.seen].reverse().find((r) => r.method === method && r.url === url);
  }
}

/** An OK envelope around `payload`, typed so fixtures are checked against the contracts. */
export function okPayload<T>(payload: T): { status: number; data: ApiOk<T> } {
  return { status: 200, data: { status: 'OK', payload } };
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
    .on('GET /csrf', { status: 200, data: { status: 'OK' } });
}

/** A RootStore wired to a FakeApi and a recording navigator. */
export function makeStore(api: FakeApi, navigator = fakeNavigator()) {
  const store = new RootStore({ api: { transport: api.transport, baseURL: '' }, navigator });
  return { store, navigator };
}

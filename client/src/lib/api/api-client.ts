import {
  CSRF_COOKIE_NAME,
  endpointPath,
  type ApiError,
  type ApiOk,
  type Endpoint,
  type PathParams,
  type RouteBodyInput,
  type RoutePayload,
  type RouteQueryInput,
  type RouteSpec,
} from '@imagestudio/contracts';
import { readCookie } from '../storage';
import { ApiRequestError } from './api-error';
import { TransportError, xhrTransport, type HttpRequest, type HttpResponse, type Transport } from './transport';

/** Per-call options on top of the request itself. */
export interface CallOptions {
  params?: Record<string, unknown>;
  /** Leave out the currency and lang_id parameters every call carries by default. */
  skipCommonParams?: boolean;
  /** Do not run the error catalogue (toasts, 401 logout, 403 redirect): the caller handles every failure. */
  skipErrorHandling?: boolean;
  signal?: AbortSignal;
  /** Extra request headers (e.g. Idempotency-Key). */
  headers?: Record<string, string>;
  /** Upload progress of a request body, 0..1 (multipart uploads). */
  onUploadProgress?: (fraction: number) => void;
  /** A GET that changes something (the password-reset request): it carries the XSRF header like a POST. */
  xsrf?: boolean;
}

/** What the API client needs from the rest of the app, supplied by the RootStore. */
export interface ApiClientHooks {
  /** currency and lang_id for the current user choice. */
  commonParams(): Record<string, string | number | undefined>;
  /** The error catalogue (stores/api-error-catalogue.ts), run for failed calls that did not opt out. */
  onError(error: ApiRequestError): void;
}

export interface ApiClientOptions {
  baseURL: string;
  timeoutMs: number;
  /** Test hook: replaces the HTTP transport (XMLHttpRequest in the browser). */
  transport?: Transport;
  /**
   * GET paths (e.g. `/tools/status`) whose successful reply answers the same GET again for `reuseMs` after it
   * arrived: what several components ask for as a page opens goes out once. Any other method forgets them all.
   */
  reusable?: readonly string[];
  reuseMs?: number;
}

type Method = HttpRequest['method'];

type ParamsInput<R extends RouteSpec> = keyof PathParams<R['path']> extends never
  ? { params?: undefined }
  : { params: PathParams<R['path']> };

/** What a call of a route sends: its path parameters, its query and its body, typed by the route table. */
export type CallInput<R extends RouteSpec> = ParamsInput<R> & {
  query?: RouteQueryInput<R>;
  body?: RouteBodyInput<R>;
};

/** The arguments after the endpoint: the input may be left out when the route has no path parameters. */
type CallArgs<R extends RouteSpec> = keyof PathParams<R['path']> extends never
  ? [input?: CallInput<R>, options?: Omit<CallOptions, 'params'>]
  : [input: CallInput<R>, options?: Omit<CallOptions, 'params'>];

const BODY_METHODS = new Set<Method>(['POST', 'PUT', 'PATCH']);

/** Adds currency and lang_id: query on GET/DELETE, body on POST/PUT/PATCH, appended to form data. */
function addCommonParams(request: HttpRequest, common: Record<string, string | number | undefined>): void {
  const defined = Object.fromEntries(Object.entries(common).filter(([, v]) => v !== undefined && v !== ''));
  if (!BODY_METHODS.has(request.method)) {
    request.params = { ...defined, ...request.params };
  } else if (typeof FormData !== 'undefined' && request.data instanceof FormData) {
    for (const [key, value] of Object.entries(defined)) {
      if (!request.data.has(key)) request.data.append(key, String(value));
    }
  } else if (request.data === undefined || (typeof request.data === 'object' && request.data !== null)) {
    request.data = { ...defined, ...(request.data as object | undefined) };
  }
}

/** An error reply (non-2xx) as an ApiRequestError carrying the envelope's message, code and field errors. */
function httpError(status: number, data: unknown): ApiRequestError {
  const body = (data && typeof data === 'object' ? data : {}) as Partial<ApiError>;
  return new ApiRequestError(
    'http',
    typeof body.message === 'string' ? body.message : '',
    status,
    typeof body.code === 'string' ? body.code : null,
    body.errors && typeof body.errors === 'object' ? body.errors : {},
  );
}

/**
 * What makes two GETs the same request (path, query and extra headers), or null for one that must go out on
 * its own: a caller's abort signal, a blob reply or upload progress belong to that caller only.
 */
function shareKey(request: HttpRequest): string | null {
  if (request.method !== 'GET' || request.signal || request.responseType || request.onUploadProgress) return null;
  const params = Object.entries(request.params)
    .filter(([, v]) => v !== undefined && v !== null)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([request.url, params, request.headers]);
}

/**
 * The one HTTP client of the app (components never call fetch): base path, cookies, XSRF header,
 * common parameters, 6 s timeout and the error catalogue. Replies are the /api envelope.
 */
export class ApiClient {
  /** Where the API lives, e.g. `/api` (for links the browser follows itself: receipts, CSV, the OpenAPI file). */
  readonly baseURL: string;
  readonly timeoutMs: number;
  private readonly transport: Transport;
  /** GETs on their way, by shareKey: an identical GET meanwhile waits for the same reply. */
  private readonly inFlight = new Map<string, Promise<HttpResponse>>();
  /** Replies of the `reusable` paths, by shareKey, with when they arrived. */
  private readonly recent = new Map<string, { at: number; response: HttpResponse }>();
  /** Counts state-changing requests, so a reply to a GET sent before one is not kept for reuse. */
  private generation = 0;
  private readonly reusable: ReadonlySet<string>;
  private readonly reuseMs: number;

  constructor(
    private readonly hooks: ApiClientHooks,
    options: ApiClientOptions,
  ) {
    this.baseURL = options.baseURL;
    this.timeoutMs = options.timeoutMs;
    this.transport = options.transport ?? xhrTransport(options.baseURL, options.timeoutMs);
    this.reusable = new Set(options.reusable ?? []);
    this.reuseMs = options.reuseMs ?? 0;
  }

  /**
   * Calls one route of the table (`endpoints` in the contracts): `api.call(endpoints.jobs.get, { params: { id } })`
   * resolves with the envelope typed by the route's reply schema.
   */
  call<R extends RouteSpec>(
    endpoint: Endpoint<R>,
    ...[input, options = {}]: CallArgs<R>
  ): Promise<ApiOk<RoutePayload<R>>> {
    const url = endpointPath(endpoint, (input?.params ?? {}) as PathParams<R['path']>);
    const method = endpoint.method.toUpperCase() as Method;
    const body = input?.body as object | undefined;
    return this.request<RoutePayload<R>>(method, url, body, {
      ...options,
      params: input?.query as Record<string, unknown>,
    });
  }

  /**
   * Calls a route whose reply is an image (`reply.kind` `webp`, e.g. `endpoints.jobs.composePreview`): resolves
   * with its bytes as a Blob; a failure is an ApiRequestError as with `call`.
   */
  image<R extends RouteSpec & { reply: { kind: 'webp' } }>(
    endpoint: Endpoint<R>,
    ...[input, options = {}]: CallArgs<R>
  ): Promise<Blob> {
    const url = endpointPath(endpoint, (input?.params ?? {}) as PathParams<R['path']>);
    const method = endpoint.method.toUpperCase() as Method;
    return this.request<unknown, Blob>(method, url, input?.body as object | undefined, {
      ...options,
      params: input?.query as Record<string, unknown>,
      responseType: 'blob',
    });
  }

  /**
   * The server gives a guest a session (and its XSRF token) only on GET /api/csrf, so anonymous browsing
   * costs no server session; a guest's first state-changing call fetches the token first. A token that
   * expired with its anonymous session (an hour) is replaced once on a 403 csrf_invalid.
   */
  private async ensureXsrfToken(force: boolean): Promise<void> {
    if (!force && readCookie(CSRF_COOKIE_NAME)) return;
    await this.send(
      { method: 'GET', url: '/csrf', params: {}, headers: { Accept: 'application/json' } },
      { skipCommonParams: true },
    ).catch(() => undefined);
  }

  /** Adds the XSRF header and the common parameters, then sends. (The browser signs in with the session cookie;
   * bearer API keys are for programs, never stored by this client.) */
  private send(request: HttpRequest, options: CallOptions): Promise<HttpResponse> {
    const xsrf = readCookie(CSRF_COOKIE_NAME);
    if (xsrf) request.headers['X-XSRF-TOKEN'] = xsrf;
    if (!options.skipCommonParams) addCommonParams(request, this.hooks.commonParams());
    return this.shared(request, request.method !== 'GET' || options.xsrf === true);
  }

  /**
   * Sends a request, unless the same GET is already on its way (then its reply is shared) or is a reusable one
   * answered moments ago. A state-changing request may outdate both: GETs after it go out again, and replies to
   * GETs sent before it are not kept.
   */
  private shared(request: HttpRequest, changesState: boolean): Promise<HttpResponse> {
    if (changesState) {
      this.generation += 1;
      this.recent.clear();
      this.inFlight.clear();
      return this.transport(request);
    }
    const key = shareKey(request);
    if (key === null) return this.transport(request);
    const kept = this.recent.get(key);
    if (kept && Date.now() - kept.at < this.reuseMs) return Promise.resolve(kept.response);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const sent = this.transport(request);
    const generation = this.generation;
    this.inFlight.set(key, sent);
    const settle = (response?: HttpResponse) => {
      if (this.inFlight.get(key) === sent) this.inFlight.delete(key);
      const ok = response && response.status >= 200 && response.status < 300;
      if (ok && generation === this.generation && this.reusable.has(request.url))
        this.recent.set(key, { at: Date.now(), response });
    };
    sent.then(settle, () => settle());
    return sent;
  }

  private async request<T, Reply = ApiOk<T>>(
    method: Method,
    url: string,
    body: object | undefined,
    options: CallOptions & Pick<HttpRequest, 'responseType'>,
    retried = false,
  ): Promise<Reply> {
    const needsToken = method !== 'GET' || options.xsrf === true;
    if (needsToken) await this.ensureXsrfToken(retried);
    let error: ApiRequestError;
    let aborted = false;
    try {
      const response = await this.send(
        {
          method,
          url,
          params: { ...options.params },
          data: body,
          headers: { Accept: 'application/json', ...options.headers },
          signal: options.signal,
          onUploadProgress: options.onUploadProgress,
          responseType: options.responseType,
        },
        options,
      );
      if (response.status >= 200 && response.status < 300) return response.data as Reply;
      error = httpError(response.status, response.data);
    } catch (err) {
      aborted = err instanceof TransportError && err.aborted;
      error =
        err instanceof ApiRequestError
          ? err
          : new ApiRequestError('network', err instanceof Error ? err.message : 'Network error');
    }
    if (needsToken && !retried && error.status === 403 && error.code === 'csrf_invalid')
      return this.request<T, Reply>(method, url, body, options, true);
    if (!options.skipErrorHandling && !aborted) this.hooks.onError(error);
    throw error;
  }
}

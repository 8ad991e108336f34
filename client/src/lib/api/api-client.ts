import axios, { AxiosError, type AxiosAdapter, type AxiosInstance, type InternalAxiosRequestConfig } from 'axios';
import { CSRF_COOKIE_NAME, type ApiError, type ApiOk } from '@imagestudio/contracts';
import { readCookie } from '../storage';
import { ApiRequestError } from './api-error';

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
  /** Bearer token from storage, if any. */
  bearerToken(): string | null;
  /** The error catalogue (stores/api-error-catalogue.ts), run for failed calls that did not opt out. */
  onError(error: ApiRequestError): void;
}

export interface ApiClientOptions {
  baseURL: string;
  timeoutMs: number;
  /** Test hook: replaces the HTTP transport. */
  adapter?: AxiosAdapter;
}

type Config = InternalAxiosRequestConfig & { callOptions?: CallOptions };

const BODY_METHODS = new Set(['post', 'put', 'patch']);

/** Adds currency and lang_id: query on GET/DELETE, body on POST/PUT/PATCH, appended to form data. */
function addCommonParams(config: Config, common: Record<string, string | number | undefined>): void {
  const defined = Object.fromEntries(Object.entries(common).filter(([, v]) => v !== undefined && v !== ''));
  const method = (config.method ?? 'get').toLowerCase();
  if (!BODY_METHODS.has(method)) {
    config.params = { ...defined, ...(config.params as object | undefined) };
  } else if (typeof FormData !== 'undefined' && config.data instanceof FormData) {
    for (const [key, value] of Object.entries(defined)) {
      if (!config.data.has(key)) config.data.append(key, String(value));
    }
  } else if (config.data === undefined || (typeof config.data === 'object' && config.data !== null)) {
    config.data = { ...defined, ...(config.data as object | undefined) };
  }
}

/** Turns any axios failure into an ApiRequestError carrying the envelope's message, code and field errors. */
function toApiError(err: unknown): ApiRequestError {
  if (err instanceof ApiRequestError) return err;
  if (err instanceof AxiosError && err.response) {
    const body = err.response.data as Partial<ApiError> | undefined;
    return new ApiRequestError(
      'http',
      typeof body?.message === 'string' ? body.message : '',
      err.response.status,
      typeof body?.code === 'string' ? body.code : null,
      body?.errors && typeof body.errors === 'object' ? body.errors : {},
    );
  }
  return new ApiRequestError('network', err instanceof Error ? err.message : 'Network error');
}

/**
 * The one HTTP client of the app (components never call fetch): base path, cookies, XSRF header, bearer token,
 * common parameters, 6 s timeout and the error catalogue. Replies are the /api envelope.
 */
export class ApiClient {
  readonly http: AxiosInstance;

  constructor(
    private readonly hooks: ApiClientHooks,
    options: ApiClientOptions,
  ) {
    this.http = axios.create({
      baseURL: options.baseURL,
      timeout: options.timeoutMs,
      withCredentials: true,
      // The header is set below from the cookie, for every origin the base URL may point at.
      xsrfCookieName: undefined,
      headers: { Accept: 'application/json' },
      adapter: options.adapter,
    });
    this.http.interceptors.request.use((config: Config) => {
      const token = this.hooks.bearerToken();
      if (token) config.headers.set('Authorization', `Bearer ${token}`);
      const xsrf = readCookie(CSRF_COOKIE_NAME);
      if (xsrf) config.headers.set('X-XSRF-TOKEN', xsrf);
      if (!config.callOptions?.skipCommonParams) addCommonParams(config, this.hooks.commonParams());
      return config;
    });
  }

  get<T>(url: string, options: CallOptions = {}): Promise<ApiOk<T>> {
    return this.request<T>({ method: 'get', url, params: options.params }, options);
  }

  delete<T>(url: string, options: CallOptions = {}): Promise<ApiOk<T>> {
    return this.request<T>({ method: 'delete', url, params: options.params }, options);
  }

  post<T>(url: string, body?: object, options: CallOptions = {}): Promise<ApiOk<T>> {
    return this.request<T>({ method: 'post', url, data: body, params: options.params }, options);
  }

  put<T>(url: string, body?: object, options: CallOptions = {}): Promise<ApiOk<T>> {
    return this.request<T>({ method: 'put', url, data: body, params: options.params }, options);
  }

  patch<T>(url: string, body?: object, options: CallOptions = {}): Promise<ApiOk<T>> {
    return this.request<T>({ method: 'patch', url, data: body, params: options.params }, options);
  }

  /**
   * The server gives a guest a session (and its XSRF token) only on GET /api/csrf, so anonymous browsing
   * costs no server session; a guest's first state-changing call fetches the token first. A token that
   * expired with its anonymous session (an hour) is replaced once on a 403 csrf_invalid.
   */
  private async ensureXsrfToken(force: boolean): Promise<void> {
    if (!force && readCookie(CSRF_COOKIE_NAME)) return;
    await this.http.get('/csrf', { callOptions: { skipCommonParams: true } } as Config).catch(() => undefined);
  }

  private async request<T>(config: Partial<Config>, options: CallOptions, retried = false): Promise<ApiOk<T>> {
    const needsToken = (config.method ?? 'get') !== 'get' || options.xsrf === true;
    if (needsToken) await this.ensureXsrfToken(retried);
    try {
      const onUploadProgress = options.onUploadProgress;
      const response = await this.http.request<ApiOk<T>>({
        ...config,
        signal: options.signal,
        headers: options.headers,
        onUploadProgress: onUploadProgress ? (e: { loaded: number; total?: number }) => onUploadProgress(e.total ? e.loaded / e.total : 0) : undefined,
        callOptions: options,
      } as Config);
      return response.data;
    } catch (err) {
      const error = toApiError(err);
      if (needsToken && !retried && error.status === 403 && error.code === 'csrf_invalid') return this.request<T>(config, options, true);
      if (!options.skipErrorHandling && !axios.isCancel(err)) this.hooks.onError(error);
      throw error;
    }
  }
}

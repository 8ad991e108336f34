/** One HTTP call as the API client hands it to the transport. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path under the API base, e.g. `/user/profile`. */
  url: string;
  /** Query parameters; undefined and null values are left out. */
  params: Record<string, unknown>;
  /** A plain object (sent as JSON), a FormData (multipart), or nothing. */
  data?: unknown;
  headers: Record<string, string>;
  signal?: AbortSignal;
  /** Upload progress of the body, 0..1. */
  onUploadProgress?: (fraction: number) => void;
}

/** Any reply that came back, whatever its status; the body parsed as JSON when it is JSON. */
export interface HttpResponse {
  status: number;
  data: unknown;
}

/** No reply at all: the network failed, the call timed out, or the caller aborted it (`aborted`). */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly aborted = false,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/** Sends one request; resolves with any reply that arrived and rejects with a TransportError otherwise. */
export type Transport = (request: HttpRequest) => Promise<HttpResponse>;

/** `?a=1&b=x` from the defined parameters ('' when there are none). */
export function queryString(params: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) query.append(key, String(value));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The browser transport: XMLHttpRequest rather than fetch, because uploads report their progress, with the
 * session cookie sent along and a time limit per call. An HTTP library would add ~15 KB (brotli) to every page
 * for the same few lines.
 */
export function xhrTransport(baseURL: string, timeoutMs: number): Transport {
  return (request) =>
    new Promise<HttpResponse>((resolve, reject) => {
      if (request.signal?.aborted) {
        reject(new TransportError('canceled', true));
        return;
      }
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, `${baseURL}${request.url}${queryString(request.params)}`);
      xhr.timeout = timeoutMs;
      xhr.withCredentials = true;
      for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
      let body: XMLHttpRequestBodyInit | null = null;
      if (request.data instanceof FormData) body = request.data;
      else if (request.data !== undefined) {
        body = JSON.stringify(request.data);
        xhr.setRequestHeader('Content-Type', 'application/json');
      }
      const onUploadProgress = request.onUploadProgress;
      if (onUploadProgress)
        xhr.upload.onprogress = (e) => onUploadProgress(e.lengthComputable && e.total > 0 ? e.loaded / e.total : 0);
      const onAbort = () => xhr.abort();
      request.signal?.addEventListener('abort', onAbort, { once: true });
      const settle = () => request.signal?.removeEventListener('abort', onAbort);
      xhr.onload = () => {
        settle();
        if (xhr.status === 0) reject(new TransportError('Network Error'));
        else resolve({ status: xhr.status, data: parseBody(xhr.responseText) });
      };
      xhr.onerror = () => {
        settle();
        reject(new TransportError('Network Error'));
      };
      xhr.ontimeout = () => {
        settle();
        reject(new TransportError(`No reply within ${timeoutMs} ms`));
      };
      xhr.onabort = () => {
        settle();
        reject(new TransportError('canceled', true));
      };
      xhr.send(body);
    });
}

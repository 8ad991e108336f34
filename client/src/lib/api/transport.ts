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
  /** `blob`: a successful reply's body is kept as a Blob (an image); an error reply is still parsed as JSON. */
  responseType?: 'blob';
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

/**
 * The slowest uplink an upload is given time for (a poor mobile connection, ~0.25 Mbit/s): a call with files may
 * take its time limit plus its size at this rate, so a large photo or batch on a slow connection is not cut off
 * while it is still being sent. (The server allows a whole request 10 minutes.)
 */
export const MIN_UPLOAD_BYTES_PER_S = 32 * 1024;

/** About the bytes of a multipart body: its files' sizes and its text fields' lengths (framing aside). */
export function formDataBytes(form: FormData): number {
  let bytes = 0;
  for (const [, value] of form.entries()) bytes += typeof value === 'string' ? value.length : value.size;
  return bytes;
}

/** The time limit of one call: `timeoutMs` for the reply, plus the time to send a multipart body at the slowest rate. */
export function callTimeoutMs(timeoutMs: number, body: XMLHttpRequestBodyInit | null): number {
  if (!(body instanceof FormData)) return timeoutMs;
  return timeoutMs + Math.ceil((formDataBytes(body) / MIN_UPLOAD_BYTES_PER_S) * 1000);
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
 * session cookie sent along and a time limit per call (longer for uploads, see callTimeoutMs). An HTTP library would add ~15 KB (brotli) to every page
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
      xhr.withCredentials = true;
      for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
      let body: XMLHttpRequestBodyInit | null = null;
      if (request.data instanceof FormData) body = request.data;
      else if (request.data !== undefined) {
        body = JSON.stringify(request.data);
        xhr.setRequestHeader('Content-Type', 'application/json');
      }
      const limitMs = callTimeoutMs(timeoutMs, body);
      xhr.timeout = limitMs;
      if (request.responseType) xhr.responseType = request.responseType;
      const onUploadProgress = request.onUploadProgress;
      if (onUploadProgress)
        xhr.upload.onprogress = (e) => onUploadProgress(e.lengthComputable && e.total > 0 ? e.loaded / e.total : 0);
      const onAbort = () => xhr.abort();
      request.signal?.addEventListener('abort', onAbort, { once: true });
      const settle = () => request.signal?.removeEventListener('abort', onAbort);
      xhr.onload = () => {
        settle();
        if (xhr.status === 0) reject(new TransportError('Network Error'));
        else if (!request.responseType) resolve({ status: xhr.status, data: parseBody(xhr.responseText) });
        else if (xhr.status >= 200 && xhr.status < 300) resolve({ status: xhr.status, data: xhr.response as Blob });
        else
          void (xhr.response as Blob)
            .text()
            .then((text) => resolve({ status: xhr.status, data: parseBody(text) }), reject);
      };
      xhr.onerror = () => {
        settle();
        reject(new TransportError('Network Error'));
      };
      xhr.ontimeout = () => {
        settle();
        reject(new TransportError(`No reply within ${limitMs} ms`));
      };
      xhr.onabort = () => {
        settle();
        reject(new TransportError('canceled', true));
      };
      xhr.send(body);
    });
}

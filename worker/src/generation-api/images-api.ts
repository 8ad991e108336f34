import type { Logger } from '@imagestudio/runtime';
import { ImageFetchError, fetchImage } from './fetch-image';

/**
 * Client of an OpenAI-compatible images API: `POST {baseUrl}/images/generations` with JSON
 * `{model, prompt, n, size[, seed]}`, and `POST {baseUrl}/images/edits` as a multipart form (`image`, `mask`,
 * `prompt`, `model`, `n`, `size`), both with the key as `Authorization: Bearer`. Replies carry images either as
 * `data[].b64_json` or as `data[].url` (fetched under fetch-image.ts's rules).
 *
 * Failures are sorted for the job: 429 and 5xx (and a dropped connection) are retried with exponential backoff
 * that waits at least what `Retry-After` / `retry-after-ms` asks; a content-policy refusal (400 with a code
 * such as content_policy_violation or moderation_blocked) is `declined` and never retried; 401/403 is `auth`;
 * a request over the timeout is `timeout`; anything else (other 4xx, a reply without images) is `failed`.
 * The key never appears in an error or a log line: any echo of it in a reply is masked.
 */

export type ImagesApiFailure = 'declined' | 'auth' | 'timeout' | 'failed';

export class ImagesApiError extends Error {
  constructor(
    message: string,
    readonly kind: ImagesApiFailure,
    /** The request parameter the API named as the problem (its `error.param`), for capability fallbacks. */
    readonly param?: string,
  ) {
    super(message);
  }
}

export interface ImagesApiOptions {
  baseUrl: string;
  key?: string;
  model: string;
  timeoutMs: number;
  logger: Logger;
  /** Tries per request, the first included. */
  maxAttempts?: number;
  /** First backoff; doubled per retry. */
  backoffMs?: number;
  /** A Retry-After longer than this fails the request instead of holding the job. */
  maxWaitMs?: number;
  /** Largest image accepted from a URL reply. */
  maxImageBytes?: number;
}

export interface ImagesRequest {
  prompt: string;
  n: number;
  size: string;
  seed?: number;
}

/**
 * An edit: the API repaints where the mask's alpha is 0 and keeps what lies under its opaque pixels. Both
 * are PNGs of the same size.
 */
export interface ImagesEditRequest {
  image: Buffer;
  mask: Buffer;
  prompt: string;
  size: string;
}

/** Error codes (or types) with which providers report a content-policy refusal. */
const DECLINED_CODES = new Set([
  'content_policy_violation',
  'moderation_blocked',
  'content_filter',
  'image_generation_user_error',
]);
const DEFAULTS = { maxAttempts: 4, backoffMs: 1000, maxWaitMs: 60_000, maxImageBytes: 50 * 1024 * 1024 };

interface ApiErrorBody {
  message?: string;
  code?: string | null;
  type?: string | null;
  param?: string | null;
}

export class ImagesApi {
  private readonly endpoint: string;
  private readonly editsEndpoint: string;
  private readonly trustedHost: string;
  private readonly settings: typeof DEFAULTS;

  constructor(private readonly options: ImagesApiOptions) {
    const base = options.baseUrl.replace(/\/+$/, '');
    this.endpoint = `${base}/images/generations`;
    this.editsEndpoint = `${base}/images/edits`;
    this.trustedHost = new URL(options.baseUrl).host;
    this.settings = {
      maxAttempts: options.maxAttempts ?? DEFAULTS.maxAttempts,
      backoffMs: options.backoffMs ?? DEFAULTS.backoffMs,
      maxWaitMs: options.maxWaitMs ?? DEFAULTS.maxWaitMs,
      maxImageBytes: options.maxImageBytes ?? DEFAULTS.maxImageBytes,
    };
  }

  /** Asks for `n` images; returns the encoded image bytes as the API sent them. */
  async generate(request: ImagesRequest, beforeAttempt?: () => Promise<void>): Promise<Buffer[]> {
    const body = JSON.stringify({
      model: this.options.model,
      prompt: request.prompt,
      n: request.n,
      size: request.size,
      ...(request.seed === undefined ? {} : { seed: request.seed }),
    });
    return this.request(this.endpoint, () => body, beforeAttempt);
  }

  /** Repaints the masked-out part of one image; returns the encoded image the API sent back. */
  async edit(request: ImagesEditRequest, beforeAttempt?: () => Promise<void>): Promise<Buffer> {
    // A fresh form per attempt: a sent FormData body cannot be read twice.
    const form = () => {
      const data = new FormData();
      data.set('model', this.options.model);
      data.set('image', new Blob([new Uint8Array(request.image)], { type: 'image/png' }), 'image.png');
      data.set('mask', new Blob([new Uint8Array(request.mask)], { type: 'image/png' }), 'mask.png');
      data.set('prompt', request.prompt);
      data.set('n', '1');
      data.set('size', request.size);
      return data;
    };
    const [image] = await this.request(this.editsEndpoint, form, beforeAttempt);
    return image!;
  }

  /** Sends one call, retrying what is worth a retry (see the file's comment). */
  private async request(
    endpoint: string,
    body: () => string | FormData,
    beforeAttempt?: () => Promise<void>,
  ): Promise<Buffer[]> {
    for (let attempt = 1; ; attempt += 1) {
      await beforeAttempt?.();
      const outcome = await this.post(endpoint, body());
      if ('images' in outcome) return this.readImages(outcome.images);
      const wait = outcome.retryAfterMs ?? this.settings.backoffMs * 2 ** (attempt - 1);
      if (attempt >= this.settings.maxAttempts || wait > this.settings.maxWaitMs) {
        throw new ImagesApiError(`${outcome.reason}, ${attempt} attempts`, 'failed');
      }
      this.options.logger.warn({ reason: outcome.reason, attempt, waitMs: wait }, 'images API busy, retrying');
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** One request: images, a retryable trouble with the wait the API asked for, or a thrown final failure. */
  private async post(
    endpoint: string,
    body: string | FormData,
  ): Promise<{ images: unknown[] } | { reason: string; retryAfterMs?: number }> {
    // A form sets its own content type (with the boundary).
    const headers: Record<string, string> =
      typeof body === 'string'
        ? { 'content-type': 'application/json', accept: 'application/json' }
        : { accept: 'application/json' };
    if (this.options.key) headers.authorization = `Bearer ${this.options.key}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      text = await response.text();
    } catch (err) {
      if ((err as Error).name === 'TimeoutError')
        throw new ImagesApiError(`no reply within ${this.options.timeoutMs} ms`, 'timeout');
      return {
        reason: `request failed: ${this.mask((err as Error).cause ? String((err as { cause: unknown }).cause) : (err as Error).message)}`,
      };
    }
    const status = response.status;
    if (status === 200) {
      const data = (parseJson(text) as { data?: unknown } | undefined)?.data;
      if (!Array.isArray(data) || data.length === 0) throw new ImagesApiError('reply without images', 'failed');
      return { images: data };
    }
    const error = ((parseJson(text) as { error?: ApiErrorBody } | undefined)?.error ?? {}) as ApiErrorBody;
    const code = error.code ?? error.type ?? '';
    const summary = this.mask(
      `HTTP ${status}${code ? ` ${code}` : ''}${error.message ? `: ${error.message}` : ''}`,
    ).slice(0, 300);
    if (status === 401 || status === 403) {
      this.options.logger.error({ status, code }, 'images API refused the key: check GENERATION_API_KEY');
      throw new ImagesApiError(summary, 'auth');
    }
    if (status === 400 && (DECLINED_CODES.has(code) || DECLINED_CODES.has(error.type ?? '')))
      throw new ImagesApiError(summary, 'declined');
    // A 429 for an exhausted quota does not pass by waiting.
    if ((status === 429 && code !== 'insufficient_quota') || status >= 500)
      return { reason: summary, retryAfterMs: retryAfterMs(response.headers) };
    if (code === 'insufficient_quota') this.options.logger.error({ status, code }, 'images API quota exhausted');
    throw new ImagesApiError(summary, 'failed', error.param ?? undefined);
  }

  private async readImages(data: unknown[]): Promise<Buffer[]> {
    const images: Buffer[] = [];
    for (const item of data) {
      const { b64_json: b64, url } = (item ?? {}) as { b64_json?: unknown; url?: unknown };
      if (typeof b64 === 'string' && b64.length > 0) images.push(Buffer.from(b64, 'base64'));
      else if (typeof url === 'string') images.push(await this.download(url));
      else throw new ImagesApiError('reply item has neither b64_json nor url', 'failed');
    }
    return images;
  }

  private async download(url: string): Promise<Buffer> {
    try {
      return await fetchImage(url, {
        trustedHost: this.trustedHost,
        maxBytes: this.settings.maxImageBytes,
        timeoutMs: this.options.timeoutMs,
      });
    } catch (err) {
      const timedOut = err instanceof ImageFetchError && err.timedOut;
      throw new ImagesApiError(this.mask((err as Error).message), timedOut ? 'timeout' : 'failed');
    }
  }

  /** Masks the key wherever a reply or an error echoes it. */
  private mask(text: string): string {
    const key = this.options.key;
    return key ? text.split(key).join('***') : text;
  }
}

/** `retry-after-ms` (OpenAI) or `Retry-After` in seconds or as an HTTP date; undefined when absent. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Config } from '../../config';
import { CallbackUrlError, parseCallbackUrl, resolvePublic } from './callback-url';

export interface PostOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  /** No (whole) answer within WEBHOOK_TIMEOUT_MS. */
  timedOut?: boolean;
}

/**
 * A DNS lookup for the socket that runs the private-address check on what it resolves, so the address
 * connected to is the one checked (a name that re-resolves to 127.0.0.1 between check and connect,
 * "DNS rebinding", is refused). `allowHosts` as for resolvePublic (the image URL fetcher names its own list).
 */
export function checkedLookup(config: Config, allowHosts?: string): LookupFunction {
  return (hostname, options, callback) => {
    resolvePublic(config, hostname, allowHosts).then(
      (addresses) => {
        const wanted =
          options.family === 4 || options.family === 6
            ? addresses.filter((a) => a.family === options.family)
            : addresses;
        const list = wanted.length > 0 ? wanted : addresses;
        if (options.all) (callback as (err: null, list: typeof addresses) => void)(null, list);
        else callback(null, list[0]!.address, list[0]!.family);
      },
      (err: Error) => callback(Object.assign(err, { code: 'EWEBHOOKADDRESS' }), '', 0),
    );
  };
}

/**
 * One delivery try: POST `body` to `url` with `headers`, at most WEBHOOK_TIMEOUT_MS for the whole
 * exchange, never following redirects (a 3xx is a failed try). A 2xx answer is a delivery.
 */
export async function postWebhook(
  config: Config,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<PostOutcome> {
  let target: URL;
  try {
    target = parseCallbackUrl(config, url);
    // Node connects to an IP-literal host without any lookup, so literals are checked here.
    await resolvePublic(config, target.hostname);
  } catch (err) {
    if (err instanceof CallbackUrlError) return { ok: false, status: null, error: err.message };
    throw err;
  }
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<PostOutcome>((resolve) => {
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
        lookup: checkedLookup(config),
        signal: AbortSignal.timeout(config.WEBHOOK_TIMEOUT_MS),
        agent: false,
      },
      (res) => {
        // The answer's body is not needed; reading it lets the socket close cleanly.
        res.resume();
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          resolve({ ok, status, error: ok ? null : `answered ${status}` });
        });
        res.on('error', (err) => resolve({ ok: false, status: res.statusCode ?? null, error: err.message }));
      },
    );
    req.on('error', (err) =>
      resolve({
        ok: false,
        status: null,
        error: err.name === 'AbortError' ? `no answer within ${config.WEBHOOK_TIMEOUT_MS} ms` : err.message,
        ...(err.name === 'AbortError' ? { timedOut: true } : {}),
      }),
    );
    req.end(body);
  });
}

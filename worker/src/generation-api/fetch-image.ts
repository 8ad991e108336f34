import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Fetches an image that an images API answered with a URL. The URL comes from a remote service, so it is not
 * trusted: only http(s); no private, loopback, link-local or otherwise non-public address (checked on the
 * address actually connected to, after DNS, so a name cannot point inside the network) unless the URL is on the
 * configured API's own host (a self-hosted server on the LAN serving its own files); no redirects; a size
 * limit counted on the bytes received and a timeout over the whole transfer.
 */

export class ImageFetchError extends Error {
  constructor(
    message: string,
    readonly timedOut = false,
  ) {
    super(message);
  }
}

export interface FetchImageOptions {
  /** `host` (name:port) of the configured API, whose URLs may be private. */
  trustedHost: string;
  maxBytes: number;
  timeoutMs: number;
}

/** True for addresses on the public internet only (ipaddr.js range "unicast"; IPv4-mapped IPv6 unwrapped). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** A dns.lookup that refuses non-public answers, so the connection is made only to a checked address. */
const publicOnlyLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => !isPublicAddress(a.address));
    if (bad || list.length === 0)
      return callback(new ImageFetchError(`image URL host ${hostname} resolves to a non-public address`), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

export async function fetchImage(rawUrl: string, options: FetchImageOptions): Promise<Buffer> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new ImageFetchError('image URL is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ImageFetchError(`image URL scheme ${url.protocol} is not allowed`);
  const trusted = url.host === options.trustedHost;
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!trusted && net.isIP(literal) && !isPublicAddress(literal))
    throw new ImageFetchError(`image URL address ${literal} is not public`);

  const get = url.protocol === 'https:' ? https.get : http.get;
  return new Promise<Buffer>((resolve, reject) => {
    const request = get(
      url,
      { lookup: trusted ? undefined : publicOnlyLookup, signal: AbortSignal.timeout(options.timeoutMs) },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status !== 200) {
          response.resume();
          reject(new ImageFetchError(`image URL answered HTTP ${status}`));
          return;
        }
        const declared = Number(response.headers['content-length'] ?? 0);
        if (declared > options.maxBytes) {
          response.destroy();
          reject(new ImageFetchError(`image URL body of ${declared} bytes is over the ${options.maxBytes} byte limit`));
          return;
        }
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > options.maxBytes) {
            response.destroy(new ImageFetchError(`image URL body is over the ${options.maxBytes} byte limit`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve(Buffer.concat(chunks)));
        response.on('error', reject);
      },
    );
    request.on('error', (err) =>
      reject(
        err.name === 'AbortError' || err.name === 'TimeoutError'
          ? new ImageFetchError('image URL timed out', true)
          : err,
      ),
    );
  });
}

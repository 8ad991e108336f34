import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';
import { LIMITS } from '@imagestudio/contracts';
import type { Config } from '../../config';
import { CallbackUrlError, checkedLookup, resolvePublic } from '../job-webhooks';
import { badField, RemoveBgError } from './removebg-errors';

/** The whole download, redirects included. */
const IMAGE_URL_TIMEOUT_MS = 20_000;
const IMAGE_URL_MAX_REDIRECTS = 3;
const MAX_URL_LENGTH = 2048;

/** Which field the URL came from, so the error names it (`image_url` or `bg_image_url`). */
type UrlField = 'image_url' | 'bg_image_url';

const refused = (field: UrlField, detail: string) => badField('invalid_image_url', `Invalid ${field}`, detail);
const failed = (field: UrlField, detail: string) =>
  badField('failed_image_download', 'Failed to download image', `${field}: ${detail}`);

/** The URL when its form is acceptable: absolute http(s), no credentials, not too long. */
function parseImageUrl(field: UrlField, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused(field, `${field} must be an absolute http or https URL.`);
  }
  if (raw.length > MAX_URL_LENGTH || !['http:', 'https:'].includes(url.protocol))
    throw refused(field, `${field} must be an absolute http or https URL.`);
  if (url.username || url.password) throw refused(field, `${field} must not contain a user name or password.`);
  return url;
}

/** The destination checks of job webhooks, with the image fetcher's own exemption list. */
async function checkHost(config: Config, field: UrlField, url: URL): Promise<void> {
  try {
    await resolvePublic(config, url.hostname, config.IMAGE_URL_ALLOW_HOSTS);
  } catch (err) {
    if (err instanceof CallbackUrlError) throw refused(field, err.message.replace('The callback URL', `${field}`));
    throw err;
  }
}

type Hop = { redirect: string } | { body: Buffer };

/** One GET: the body (within the image size limit) on a 2xx, the next location on a redirect. */
function getOnce(config: Config, field: UrlField, url: URL, signal: AbortSignal): Promise<Hop> {
  const client = url.protocol === 'https:' ? https : http;
  // An IP literal connects without a lookup, so the socket's checked lookup never sees it: refuse it here too.
  const literal = ipaddr.isValid(url.hostname.replace(/^\[|\]$/g, ''));
  return new Promise<Hop>((resolve, reject) => {
    const req = client.get(
      url,
      {
        // The address connected to is the one checked (a name re-resolving to 127.0.0.1 is refused).
        lookup: literal ? undefined : checkedLookup(config, config.IMAGE_URL_ALLOW_HOSTS),
        signal,
        agent: false,
        headers: { 'User-Agent': 'imagestudio-image-fetch/1.0', Accept: 'image/*' },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          return resolve({ redirect: res.headers.location });
        }
        if (status < 200 || status >= 300) {
          res.resume();
          return reject(failed(field, `the server answered ${status}.`));
        }
        const declared = Number(res.headers['content-length']);
        if (declared > LIMITS.uploadMaxBytes) {
          res.destroy();
          return reject(tooLarge());
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > LIMITS.uploadMaxBytes) {
            res.destroy();
            return reject(tooLarge());
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ body: Buffer.concat(chunks) }));
        res.on('error', (err) => reject(err));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EWEBHOOKADDRESS') return reject(refused(field, err.message.replace('The callback URL', field)));
      reject(
        failed(field, err.name === 'AbortError' ? `no answer within ${IMAGE_URL_TIMEOUT_MS / 1000} s.` : err.message),
      );
    });
  });
}

const tooLarge = () =>
  badField(
    'file_too_large',
    'File too large',
    `The image is too large: at most ${LIMITS.uploadMaxBytes / 1048576} MB.`,
  );

/**
 * Downloads an image the way job webhooks are sent: http(s) only, no credentials, every resolved address global
 * unicast (checked again at connect), at most 3 redirects each checked again, 20 s for everything, at most the
 * upload size limit read. The type is judged later from the bytes, like an upload's. Returns the bytes and the
 * URL they came from (after redirects). Throws remove.bg's 400s:
 * `invalid_image_url` for a refused URL, `failed_image_download` for a failed download.
 */
export async function fetchImageUrl(
  config: Config,
  field: UrlField,
  raw: string,
): Promise<{ bytes: Buffer; url: URL }> {
  const signal = AbortSignal.timeout(IMAGE_URL_TIMEOUT_MS);
  let url = parseImageUrl(field, raw);
  for (let hop = 0; ; hop += 1) {
    await checkHost(config, field, url);
    let outcome: Hop;
    try {
      outcome = await getOnce(config, field, url, signal);
    } catch (err) {
      if (err instanceof RemoveBgError) throw err;
      throw failed(field, (err as Error).message);
    }
    if ('body' in outcome) return { bytes: outcome.body, url };
    if (hop >= IMAGE_URL_MAX_REDIRECTS) throw failed(field, `more than ${IMAGE_URL_MAX_REDIRECTS} redirects.`);
    let next: URL;
    try {
      next = new URL(outcome.redirect, url);
    } catch {
      throw failed(field, 'a redirect to an invalid URL.');
    }
    url = parseImageUrl(field, next.toString());
  }
}

import type { RequestHandler } from 'express';
import helmet from 'helmet';
import type { Config } from '../config';

/** Where the Google tag (gtag.js) loads from and reports to, for the CSP. */
const GOOGLE_TAG_ORIGIN = 'https://www.googletagmanager.com';
const GOOGLE_ANALYTICS_ORIGINS = ['https://*.google-analytics.com', 'https://*.analytics.google.com'];

/**
 * Security headers (helmet). The client's pages get the document policy: result images come from presigned
 * S3 URLs, which may live on another origin; the client loads the operator's Google tag (settings google_tag)
 * after cookie consent, which needs Google's tag and analytics origins. Nothing else is allowed off-site.
 *
 * /api replies get a policy of their own that allows nothing but inline styles and forms posting back to the
 * API (the receipt and the test checkout are the only HTML pages there; every other reply is JSON, which a
 * browser never runs), may not be framed at all, and leave out the headers that only matter to the client's
 * documents. Besides being stricter, this keeps ~750 bytes of headers off every API reply: more than most JSON
 * bodies, and a measurable share of a cheap signed-in read (bench/sections/auth.ts).
 */
export function securityHeaders(config: Pick<Config, 'APP_URL'>, storageEndpoint: string): RequestHandler {
  const s3Origin = new URL(storageEndpoint).origin;
  const upgrade = config.APP_URL.startsWith('https:') ? [] : null;
  const documents = helmet({
    contentSecurityPolicy: {
      directives: {
        'script-src': ["'self'", GOOGLE_TAG_ORIGIN],
        'img-src': ["'self'", 'data:', 'blob:', s3Origin, GOOGLE_TAG_ORIGIN, ...GOOGLE_ANALYTICS_ORIGINS],
        'connect-src': ["'self'", s3Origin, GOOGLE_TAG_ORIGIN, ...GOOGLE_ANALYTICS_ORIGINS],
        'upgrade-insecure-requests': upgrade,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  const api = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'none'"],
        'style-src': ["'unsafe-inline'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        'base-uri': ["'none'"],
        'upgrade-insecure-requests': upgrade,
      },
    },
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: 'deny' },
    // Headers that only steer how a browser treats a document it renders (DNS prefetching of its links, agent
    // clusters, IE8's open-on-download, Flash and Acrobat cross-domain files): nothing of that applies here.
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
  });
  return (req, res, next) => (isApiPath(req.path) ? api : documents)(req, res, next);
}

function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

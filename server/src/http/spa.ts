import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import express, { type Router } from 'express';
import expressStaticGzip from 'express-static-gzip';

/** Cache-Control of files whose names carry a content hash: they never change, so browsers keep them a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The shell and every unhashed file: the browser revalidates before each use, so a deploy shows at once. */
const REVALIDATE = 'no-cache';

export interface SpaOptions {
  /** Serve *.map files and name them in a SourceMap header; otherwise they answer 404. */
  sourceMapsPublic: boolean;
}

/**
 * Serves the built client. The build writes a brotli (.br) and a gzip (.gz) copy next to each text asset; the
 * copy the browser accepts (Accept-Encoding, brotli first) is sent with Content-Encoding and
 * `Vary: Accept-Encoding`. Hashed assets (/assets/*) are immutable; index.html and the other public files
 * are revalidated. Every other GET outside /api gets index.html, so client-side routes work on reload.
 */
export function spaRouter(distDir: string, options: SpaOptions): Router {
  const router = express.Router();
  const index = path.join(distDir, 'index.html');
  if (!options.sourceMapsPublic) {
    router.get(/\.map$/, (_req, res) => {
      res.status(404).type('text').send('Not found');
    });
  }
  const compressedStatic = (root: string, cacheControl: string, fallthrough: boolean) =>
    expressStaticGzip(root, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: {
        fallthrough,
        cacheControl: false,
        setHeaders: (res: ServerResponse, file: string) => {
          res.setHeader('Cache-Control', cacheControl);
          if (options.sourceMapsPublic && /\.js(\.br|\.gz)?$/.test(file)) {
            res.setHeader('SourceMap', `${path.basename(file).replace(/\.(br|gz)$/, '')}.map`);
          }
        },
      },
    });
  router.use('/assets', compressedStatic(path.join(distDir, 'assets'), IMMUTABLE, false));
  router.use(compressedStatic(distDir, REVALIDATE, true));
  router.get('/{*splat}', (req, res, next) => {
    if (req.path.startsWith('/api/') || req.path === '/api') return next();
    if (!fs.existsSync(index)) {
      res.status(503).type('text').send('The client is not built yet: run `npm run build`.');
      return;
    }
    res.set('Cache-Control', REVALIDATE).sendFile(index);
  });
  return router;
}

import { Router } from 'express';
import { routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { mountRoutes } from '../../http/route-table';
import { buildOpenApiDocument } from './openapi.document';

/** GET /api/openapi.json: the API's OpenAPI 3.1 document (public, built once per process). */
export function openApiRouter(ctx: AppContext) {
  const router = Router();
  let document: string | undefined;
  return mountRoutes(router, routes.service, {
    openApi: ({ res }) => {
      document ??= JSON.stringify(buildOpenApiDocument(new URL('/api', ctx.config.APP_URL).toString()));
      res.type('application/json').set('Cache-Control', 'public, max-age=300').send(document);
    },
  });
}

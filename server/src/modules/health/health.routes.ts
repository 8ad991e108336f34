import { timingSafeEqual } from 'node:crypto';
import { Router, type Request } from 'express';
import { routes } from '@imagestudio/contracts';
import type { AppContext } from '../../context';
import { AppError, notFound } from '../../lib/errors';
import { mountRoutes } from '../../http/route-table';
import { pingDatabase } from './health.repository';

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, label: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${label} timed out`)), CHECK_TIMEOUT_MS).unref()),
  ]);
}

/** Whether the request carries `Authorization: Bearer <token>` (compared in constant time). */
function hasBearer(req: Request, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(req.get('authorization') ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Liveness (the process answers) and readiness (every dependency answers within 2 s). */
export function healthRouter(ctx: AppContext) {
  const router = Router();

  return mountRoutes(router, routes.service, {
    health: () => ({ uptime_s: Math.round(process.uptime()) }),

    ready: async () => {
      const checks = {
        postgres: () => pingDatabase(ctx.db),
        redis: () => ctx.redis.ping(),
        queue: () => ctx.queueRedis.ping(),
        s3: () => ctx.storage.check(),
      } satisfies Record<string, () => Promise<unknown>>;
      const results = await Promise.all(
        Object.entries(checks).map(async ([name, check]) => {
          try {
            await withTimeout<unknown>(check(), name);
            return [name, 'ok'] as const;
          } catch {
            return [name, 'down'] as const;
          }
        }),
      );
      const down = results.filter(([, state]) => state === 'down').map(([name]) => name);
      if (down.length > 0) throw new AppError('service_unavailable', `Not ready: ${down.join(', ')} unavailable.`);
      // Past the check above every dependency answered, so each one is `ok`.
      return Object.fromEntries(results) as Record<keyof typeof checks, 'ok'>;
    },

    // Metrics reveal traffic, queue depth and failures: only a scraper holding METRICS_TOKEN reads them.
    metrics: async ({ req, res }) => {
      const token = ctx.config.METRICS_TOKEN;
      if (!token) throw notFound();
      if (!hasBearer(req, token))
        throw new AppError('unauthenticated', 'Unauthenticated.', { headers: { 'WWW-Authenticate': 'Bearer' } });
      res.type(ctx.metrics.registry.contentType).send(await ctx.metrics.registry.metrics());
    },
  });
}

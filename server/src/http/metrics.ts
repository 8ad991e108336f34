import type { RequestHandler } from 'express';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One Prometheus registry per app instance, so tests that build several apps do not collide. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  /** Records every request; the route label is the matched pattern, never the raw URL (bounded cardinality). */
  const middleware: RequestHandler = (req, res, next) => {
    const end = duration.startTimer();
    res.on('finish', () => {
      const route = req.route?.path
        ? `${req.baseUrl}${String(req.route.path)}`
        : req.path.startsWith('/api')
          ? 'unmatched'
          : 'static';
      requests.inc({ method: req.method, route, status: String(res.statusCode) });
      end({ method: req.method, route });
    });
    next();
  };

  return { registry, middleware };
}

export type Metrics = ReturnType<typeof createMetrics>;

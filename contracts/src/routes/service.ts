import { z } from 'zod';
import { defineRoutes } from './route';

/** Probes, metrics and the OpenAPI document (served before sessions: they never create one). */
export const serviceRoutes = defineRoutes('service', {
  health: {
    operator: true,
    tag: 'Service',
    summary: 'Liveness',
    auth: 'public',
    reply: { kind: 'json', payload: z.object({ uptime_s: z.number() }) },
  },
  ready: {
    operator: true,
    tag: 'Service',
    summary: 'Readiness of Postgres, Redis, the queue and S3 (503 naming what is down)',
    auth: 'public',
    reply: {
      kind: 'json',
      // Only sent when every check passed: a dependency that does not answer makes the reply the 503 instead.
      payload: z
        .object({ postgres: z.literal('ok'), redis: z.literal('ok'), queue: z.literal('ok'), s3: z.literal('ok') })
        .describe('Each dependency and its state'),
    },
  },
  metrics: {
    operator: true,
    tag: 'Service',
    summary: 'Prometheus metrics (Authorization: Bearer <METRICS_TOKEN>; not served without one)',
    auth: 'public',
    reply: { kind: 'text', description: 'Prometheus text format' },
  },
  openApi: {
    tag: 'Service',
    summary: 'This document',
    auth: 'public',
    reply: { kind: 'document', description: 'OpenAPI 3.1 document (not wrapped in the envelope)' },
  },
});

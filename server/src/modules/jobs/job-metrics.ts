import { Counter, Gauge, Histogram } from 'prom-client';
import type { AppContext } from '../../context';
import { oldestQueuedAgeSeconds } from './jobs.repository';

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized'] as const;

export function createJobMetrics(ctx: Pick<AppContext, 'db' | 'queue' | 'metrics'>) {
  const registers = [ctx.metrics.registry];
  new Gauge({
    name: 'image_queue_jobs',
    help: 'Jobs in the BullMQ images queue by state (not started: waiting + prioritized + delayed; running: active)',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      const counts = await ctx.queue.getJobCounts(...QUEUE_STATES).catch(() => null);
      if (!counts) return;
      for (const state of QUEUE_STATES) this.set({ state }, counts[state] ?? 0);
    },
  });
  new Gauge({
    name: 'image_queue_oldest_waiting_seconds',
    help: 'Age of the oldest accepted job that has not started yet',
    registers,
    async collect() {
      this.set(await oldestQueuedAgeSeconds(ctx.db).catch(() => 0));
    },
  });
  return {
    duration: new Histogram({
      name: 'image_job_duration_seconds',
      help: 'Time from worker start to outcome, per tool and outcome',
      labelNames: ['tool', 'status'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers,
    }),
    wait: new Histogram({
      name: 'image_job_wait_seconds',
      help: 'Time from acceptance to worker start, per tool',
      labelNames: ['tool'] as const,
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
      registers,
    }),
    finished: new Counter({
      name: 'image_jobs_finished_total',
      help: 'Jobs that reached an outcome, per tool and status (failed = failures)',
      labelNames: ['tool', 'status'] as const,
      registers,
    }),
    rejected: new Counter({
      name: 'image_jobs_rejected_total',
      help: 'Submissions refused after acceptance started: queue unreachable',
      labelNames: ['tool'] as const,
      registers,
    }),
  };
}

export type JobMetrics = ReturnType<typeof createJobMetrics>;

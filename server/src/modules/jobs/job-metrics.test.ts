import { createMetrics } from '../../http/metrics';
import { createJobMetrics } from './job-metrics';

/**
 * The queue-depth gauge that scales the workers (deploy/k8s/base/worker-scaledobject.yaml sums its waiting,
 * prioritized, delayed and active states): every state BullMQ counts is exported, read fresh at each scrape.
 */
describe('image_queue_jobs', () => {
  it('exports the jobs of every state a worker has still to start or finish, read at each scrape', async () => {
    let counts: Record<string, number> = { waiting: 3, prioritized: 5, delayed: 2, active: 1, failed: 4, completed: 9 };
    const asked: string[][] = [];
    const queue = {
      getJobCounts: async (...states: string[]) => {
        asked.push(states);
        return counts;
      },
    };
    const metrics = createMetrics();
    const noDb = () => {
      throw new Error('no database in this test');
    };
    createJobMetrics({ db: noDb, queue, metrics } as never);

    const gauge = async () => {
      const text = await metrics.registry.metrics();
      return Object.fromEntries(
        [...text.matchAll(/^image_queue_jobs\{state="(\w+)"\} (\d+)$/gm)].map((m) => [m[1], Number(m[2])]),
      );
    };
    expect(await gauge()).toEqual(counts);
    expect(asked[0]).toEqual(expect.arrayContaining(['waiting', 'prioritized', 'delayed', 'active']));

    counts = { waiting: 0, prioritized: 1, delayed: 0, active: 2, failed: 4, completed: 10 };
    expect(await gauge()).toEqual(counts);
    expect(await metrics.registry.getSingleMetricAsString('image_queue_oldest_waiting_seconds')).toMatch(/ 0$/m);
  });
});

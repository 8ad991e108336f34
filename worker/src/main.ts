import { startWorker } from './app';
import { startWatchdog } from './queue/watchdog';
import { loadWorkerConfig } from './config';
import { loadConfigOrExit, stopOnSignals } from '@imagestudio/runtime';
import { createLogger } from '@imagestudio/runtime';

/** After the grace for running jobs: handing them back, the heartbeat, models and connections. */
const SHUTDOWN_AFTER_GRACE_MS = 15_000;

/** Starts the GPU worker: config, connections, models, BullMQ Worker; ordered shutdown on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfigOrExit(() => loadWorkerConfig());
  const logger = createLogger(config.LOG_LEVEL, 'worker');
  let beat = () => undefined as void;
  const running = await startWorker(config, logger, undefined, { onHeartbeat: () => beat() });
  // Started once the models are loaded (which may take minutes); the first heartbeat is already written.
  const watchdog =
    config.WORKER_WATCHDOG_S > 0
      ? startWatchdog(config.WORKER_WATCHDOG_S * 1000, { component: 'worker', workerId: running.workerId })
      : undefined;
  if (watchdog) beat = watchdog.beat;

  const graceMs = config.WORKER_SHUTDOWN_GRACE_S * 1000;
  stopOnSignals(
    async (signal) => {
      logger.info({ signal, graceS: config.WORKER_SHUTDOWN_GRACE_S }, 'shutting down: finishing active jobs');
      await watchdog?.stop();
      const { handedBack } = await running.close(graceMs);
      if (handedBack.length > 0) {
        logger.warn({ jobIds: handedBack }, 'jobs still running at the end of the grace period went back to the queue');
      }
      logger.info('stopped');
    },
    graceMs + SHUTDOWN_AFTER_GRACE_MS,
    // Only when handing back or closing hung (Redis away): the jobs stay locked and BullMQ's stalled check hands
    // them to another worker once their locks expire.
    () => logger.warn('shutdown did not finish in time; exiting, locked jobs will be retried once their locks expire'),
  );
}

main().catch((err: Error) => {
  console.error(`worker failed to start: ${err.message}`);
  process.exit(1);
});

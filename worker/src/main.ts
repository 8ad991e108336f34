import { startWorker } from './app';
import { startWatchdog } from './queue/watchdog';
import { loadWorkerConfig } from './config';
import { loadConfigOrExit, stopOnSignals } from '@imagestudio/runtime';
import { createLogger } from '@imagestudio/runtime';

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

  stopOnSignals(
    async (signal) => {
      logger.info({ signal }, 'shutting down: finishing active jobs');
      await watchdog?.stop();
      await running.close();
      logger.info('stopped');
    },
    60_000,
    // Jobs still running now stay locked; BullMQ's stalled check hands them to another worker.
    () => logger.warn('active jobs did not finish in time; exiting, their locks will expire and they will be retried'),
  );
}

main().catch((err: Error) => {
  console.error(`worker failed to start: ${err.message}`);
  process.exit(1);
});

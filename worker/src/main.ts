import { startWorker } from './app';
import { loadWorkerConfig } from './config';
import { loadConfigOrExit } from './lib/boot';
import { createLogger } from './lib/logger';

/** Starts the GPU worker: config, connections, models, BullMQ Worker; ordered shutdown on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfigOrExit(() => loadWorkerConfig());
  const logger = createLogger(config.LOG_LEVEL);
  const running = await startWorker(config, logger);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing active jobs');
    // Jobs still running after this are left locked; BullMQ's stalled check hands them to another worker.
    const force = setTimeout(() => {
      logger.warn('active jobs did not finish in time; exiting, their locks will expire and they will be retried');
      process.exit(1);
    }, 60_000).unref();
    await running.close();
    clearTimeout(force);
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err: Error) => {
  console.error(`worker failed to start: ${err.message}`);
  process.exit(1);
});

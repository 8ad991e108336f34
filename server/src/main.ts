import type { Server } from 'node:http';
import { createApp } from './app';
import { createHttpServer } from './http/http-server';
import { closeDeps, openDeps } from './bootstrap';
import { loadConfig } from './config';
import { loadConfigOrExit, stopOnSignals } from '@imagestudio/runtime';
import type { AppContext } from './context';
import { createLogger } from '@imagestudio/runtime';
import { backgroundTasks } from './modules';
import { drainHttpServer } from './http/drain';

/** After the requests' grace: background tasks, Postgres, Redis and S3 clients. */
const SHUTDOWN_AFTER_GRACE_MS = 10_000;

/** Starts the API: config, connections, app, listen; then shuts down in order on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfigOrExit(() => loadConfig());
  const logger = createLogger(config.LOG_LEVEL, 'api');
  const deps = await openDeps(config, logger);
  const app = createApp(deps);
  const ctx = app.locals.ctx as AppContext;
  const stoppers = backgroundTasks(ctx).map((task) => {
    logger.info({ task: task.name }, 'background task started');
    return task.start();
  });
  const server: Server = createHttpServer(app, config).listen(config.PORT, config.HOST, () => {
    logger.info({ port: config.PORT, url: config.APP_URL }, 'API listening');
  });

  stopOnSignals(
    async (signal) => {
      logger.info({ signal, graceS: config.API_SHUTDOWN_GRACE_S }, 'shutting down');
      // Stop accepting connections first, let in-flight requests finish, then close dependencies.
      const { cut } = await drainHttpServer(server, config.API_SHUTDOWN_GRACE_S * 1000);
      if (cut) logger.warn('requests still in flight at the end of the grace period were cut');
      await Promise.all(stoppers.map((stop) => stop().catch(() => undefined)));
      await closeDeps(ctx);
      logger.info('stopped');
    },
    config.API_SHUTDOWN_GRACE_S * 1000 + SHUTDOWN_AFTER_GRACE_MS,
    () => logger.error('shutdown did not finish in time; exiting'),
  );
}

main().catch((err: Error) => {
  console.error(`API failed to start: ${err.message}`);
  process.exit(1);
});

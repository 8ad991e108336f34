import type { Server } from 'node:http';
import { createApp } from './app';
import { createHttpServer } from './http/http-server';
import { closeDeps, openDeps } from './bootstrap';
import { loadConfig } from './config';
import { loadConfigOrExit, stopOnSignals } from '@imagestudio/runtime';
import type { AppContext } from './context';
import { createLogger } from '@imagestudio/runtime';
import { backgroundTasks } from './modules';

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
      logger.info({ signal }, 'shutting down');
      // Stop accepting connections first, let in-flight requests finish, then close dependencies.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Long-lived responses (event streams) get a short grace period, then are cut.
      setTimeout(() => server.closeAllConnections(), 5000).unref();
      await closed;
      await Promise.all(stoppers.map((stop) => stop().catch(() => undefined)));
      await closeDeps(ctx);
      logger.info('stopped');
    },
    15_000,
    () => logger.error('shutdown did not finish in 15 s; exiting'),
  );
}

main().catch((err: Error) => {
  console.error(`API failed to start: ${err.message}`);
  process.exit(1);
});

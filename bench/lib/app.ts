import type { AddressInfo } from 'node:net';
import { createApp } from '../../server/src/app';
import { closeDeps, openDeps } from '../../server/src/bootstrap';
import { loadConfig, type Config } from '../../server/src/config';
import type { AppContext, AppDeps } from '../../server/src/context';
import { createLogger } from '@imagestudio/runtime';
import { prepareDatabase } from '../../server/src/lib/migrator';

export interface BenchApp {
  base: string;
  ctx: AppContext;
  config: Config;
  deps: AppDeps;
  close: () => Promise<void>;
}

/**
 * Migrates and seeds the configured database (DATABASE_URL), then serves the real app on loopback with
 * silent logs and an embedded S3 on a free port; `env` adds a section's own settings (prefixes, limits).
 */
export async function startBenchApp(env: Record<string, string> = {}): Promise<BenchApp> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', S3_LOCAL_PORT: '0', ...env });
  await prepareDatabase(config.DATABASE_URL);
  const deps = await openDeps(config, createLogger('silent', 'bench'));
  const app = createApp(deps);
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    ctx: app.locals.ctx as AppContext,
    config,
    deps,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeDeps(app.locals.ctx as AppContext);
    },
  };
}

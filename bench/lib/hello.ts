import type { AddressInfo } from 'node:net';
import { RedisStore } from 'connect-redis';
import express from 'express';
import session from 'express-session';
import type { RedisClient } from '@imagestudio/runtime';

/**
 * The peer for API throughput goals: a bare Express app answering a small JSON body, in the same
 * process and run as the measured app, so the ratio compares like with like on this machine.
 */
export async function startHelloWorld(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  app.get('/hello', (_req, res) => {
    res.json({ status: 'OK', payload: 'hello' });
  });
  return serve(app, '/hello');
}

/**
 * The ceiling of any signed-in route: the same hello-world behind nothing but express-session on connect-redis
 * (the session layer of every signed-in call), configured as the app configures it. `signInUrl` gives a session.
 */
export async function startSessionOnlyHello(
  redis: RedisClient,
): Promise<{ url: string; signInUrl: string; close: () => Promise<void> }> {
  const app = express();
  const store = new RedisStore({ client: redis, prefix: 'bench-sess:', disableTouch: true });
  app.use(
    session({
      secret: 'bench-session-secret-bench-session-secret',
      store,
      resave: false,
      saveUninitialized: false,
      rolling: true,
      cookie: { httpOnly: true, sameSite: 'lax' },
    }),
  );
  app.get('/sign-in', (req, res) => {
    (req.session as unknown as { user: string }).user = 'bench';
    res.json({ status: 'OK' });
  });
  app.get('/hello', (req, res) => {
    res.json({
      status: 'OK',
      payload: 'hello',
      signedIn: (req.session as unknown as { user?: string }).user === 'bench',
    });
  });
  const served = await serve(app, '/hello');
  return { ...served, signInUrl: served.url.replace(/\/hello$/, '/sign-in') };
}

async function serve(app: express.Express, path: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

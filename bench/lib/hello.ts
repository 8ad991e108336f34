import type { AddressInfo } from 'node:net';
import express from 'express';

/**
 * The peer for API throughput goals: a bare Express app answering a small JSON body, in the same
 * process and run as the measured app, so the ratio compares like with like on this machine.
 */
export async function startHelloWorld(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  app.get('/hello', (_req, res) => {
    res.json({ status: 'OK', payload: 'hello' });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hello`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalServer {
  server: http.Server;
  /** `http://127.0.0.1:<port><path>` once listening. */
  url(path: string): string;
  listen(): Promise<void>;
  /** Closes the server and every connection still open (a receiver that hangs on purpose keeps some). */
  close(): Promise<void>;
}

/** An HTTP server on a free loopback port, for tests that need something to call (a webhook receiver). */
export function localServer(handler: http.RequestListener): LocalServer {
  const server = http.createServer(handler);
  return {
    server,
    url: (path) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    listen: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

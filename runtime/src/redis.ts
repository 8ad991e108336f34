import { createClient } from 'redis';

/** The one node-redis client type the server and worker use. */
export type RedisClient = ReturnType<typeof createClient>;

const CONNECT_TIMEOUT_MS = 5000;

/**
 * Creates and connects a node-redis client. A refused or silent Redis fails within 5 s with a clear
 * message instead of retrying forever (node-redis's default), so boot and tests never hang.
 * After the first connection the client reconnects with a short back-off.
 */
export async function connectRedis(url: string, options: { database?: number; name?: string } = {}): Promise<RedisClient> {
  let connected = false;
  // node-redis rejects connect() with a bare "The client is closed" once the strategy gives up; keep the
  // strategy's own error so the operator sees what was unreachable.
  let refused: Error | undefined;
  const client = createClient({
    url,
    database: options.database,
    name: options.name,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries: number, cause: Error) => {
        if (!connected) return (refused = new Error(`Redis at ${redactUrl(url)} is not reachable: ${cause.message}`));
        return Math.min(100 * 2 ** retries, 3000);
      },
    },
  });
  // Without a listener node-redis would crash the process on a transient error; reconnects handle it.
  client.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis at ${redactUrl(url)} did not answer within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
    timer.unref();
  });
  try {
    await Promise.race([client.connect(), timeout]);
  } catch (err) {
    // A client the strategy already closed throws on destroy(); only a half-open one needs it.
    if (client.isOpen) client.destroy();
    throw refused ?? err;
  } finally {
    clearTimeout(timer);
  }
  connected = true;
  return client as RedisClient;
}

/** Hides the password of a connection URL for logs and error messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

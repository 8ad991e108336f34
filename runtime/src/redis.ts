import { createClient } from 'redis';

/** The one node-redis client type the server and worker use. */
export type RedisClient = ReturnType<typeof createClient>;

const CONNECT_TIMEOUT_MS = 5000;
/** Longest pause between reconnect attempts while Redis is away: it is back in use within this of returning. */
const MAX_RECONNECT_DELAY_MS = 1000;

/**
 * The node-redis options of a connection to `url`, on `database` when given. An explicit database index
 * in the URL is removed first: node-redis lets the URL's index win over `database` on the first client and
 * lets a duplicate fall back to db 0 when the index is 0, which split the queue between dbs. With the
 * index only in `database`, every duplicate (BullMQ's blocking connections, the queue-events reader)
 * selects the same db as its original.
 */
export function redisOptions(url: string, database?: number): { url: string; database?: number } {
  const u = new URL(url);
  const fromUrl = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : undefined;
  u.pathname = '';
  return { url: u.toString().replace(/\/$/, ''), database: database ?? fromUrl };
}

/**
 * Creates and connects a node-redis client. A refused or silent Redis fails within 5 s with a clear
 * message instead of retrying forever (node-redis's default), so boot and tests never hang.
 * After the first connection the client reconnects for ever with a short back-off, and while it is away
 * commands fail at once (no offline queue) instead of waiting: a request that needs Redis answers 503
 * during an outage rather than hanging, and everything resumes on the first successful reconnect.
 */
export async function connectRedis(
  url: string,
  options: { database?: number; name?: string } = {},
): Promise<RedisClient> {
  let connected = false;
  // node-redis rejects connect() with a bare "The client is closed" once the strategy gives up; keep the
  // strategy's own error so the operator sees what was unreachable.
  let refused: Error | undefined;
  const client = createClient({
    ...redisOptions(url, options.database),
    name: options.name,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries: number, cause: Error) => {
        if (!connected) return (refused = new Error(`Redis at ${redactUrl(url)} is not reachable: ${cause.message}`));
        return Math.min(100 * 2 ** retries, MAX_RECONNECT_DELAY_MS);
      },
    },
  });
  // Without a listener node-redis would crash the process on a transient error; reconnects handle it.
  // Duplicates (made by BullMQ and the queue-events reader) copy the options but not this listener;
  // BullMQ's adapter listens on them (see queue-connection.ts).
  client.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Redis at ${redactUrl(url)} did not answer within ${CONNECT_TIMEOUT_MS} ms`)),
      CONNECT_TIMEOUT_MS,
    );
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

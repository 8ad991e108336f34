import net from 'node:net';
import { connectDb } from './db';
import { connectRedis } from '@imagestudio/runtime';
import { TEST_QUEUE_REDIS_DB, TEST_REDIS_URL } from '@imagestudio/runtime/testing';
import { freePort as closedPort } from '@imagestudio/runtime/testing';

/** A TCP server that accepts connections and never answers: a hung dependency. */
async function silentServer(): Promise<{ port: number; close: () => void }> {
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      sockets.forEach((s) => s.destroy());
      server.close();
    },
  };
}

describe('connecting to a missing dependency', () => {
  it('fails fast with a clear message when Redis refuses the connection', async () => {
    const port = await closedPort();
    const started = Date.now();
    await expect(connectRedis(`redis://127.0.0.1:${port}`)).rejects.toThrow(
      /Redis at redis:\/\/127\.0\.0\.1:\d+\/? is not reachable/,
    );
    expect(Date.now() - started).toBeLessThan(5500);
  });

  it('gives up within 5 s when Redis accepts but never answers', async () => {
    const silent = await silentServer();
    const started = Date.now();
    try {
      await expect(connectRedis(`redis://127.0.0.1:${silent.port}`)).rejects.toThrow(
        /Redis at .* (did not answer within 5000 ms|is not reachable)/,
      );
      // The 5 s limit is named in the message; the wall clock only shows that it gave up at about that time
      // instead of waiting on the silent server for ever (a loaded CI machine once took 7.6 s here).
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      silent.close();
    }
  });

  it('fails with a clear message when Postgres is not there', async () => {
    const port = await closedPort();
    const started = Date.now();
    await expect(connectDb(`postgres://postgres:secret@127.0.0.1:${port}/nothing`)).rejects.toThrow(
      /Postgres at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/nothing is not reachable/,
    );
    expect(Date.now() - started).toBeLessThan(5500);
  });

  it('gives up within 5 s when Postgres accepts but never answers', async () => {
    const silent = await silentServer();
    const started = Date.now();
    try {
      await expect(connectDb(`postgres://postgres@127.0.0.1:${silent.port}/nothing`)).rejects.toThrow(
        /Postgres at .* is not reachable/,
      );
      expect(Date.now() - started).toBeLessThan(6500);
    } finally {
      silent.close();
    }
  });
});

describe('the database index of a Redis connection', () => {
  /** The db a connection has selected, as Redis itself reports it. */
  const selectedDb = async (client: Awaited<ReturnType<typeof connectRedis>>) => String((await client.clientInfo()).db);

  it.each([0, 2])('uses `database` on the client and on every duplicate even with /%i in the URL', async (urlDb) => {
    const base = new URL(TEST_REDIS_URL);
    base.pathname = `/${urlDb}`;
    const client = await connectRedis(base.toString(), { database: TEST_QUEUE_REDIS_DB });
    const dup = client.duplicate();
    const dupOfDup = dup.duplicate();
    try {
      await dup.connect();
      await dupOfDup.connect();
      expect(await selectedDb(client)).toBe(String(TEST_QUEUE_REDIS_DB));
      expect(await selectedDb(dup)).toBe(String(TEST_QUEUE_REDIS_DB));
      expect(await selectedDb(dupOfDup)).toBe(String(TEST_QUEUE_REDIS_DB));
    } finally {
      await Promise.all([client.quit(), dup.quit(), dupOfDup.quit()]);
    }
  });

  it('keeps the URL index when no database is given', async () => {
    const client = await connectRedis(TEST_REDIS_URL);
    const dup = client.duplicate();
    try {
      await dup.connect();
      const urlDb = new URL(TEST_REDIS_URL).pathname.slice(1) || '0';
      expect(await selectedDb(client)).toBe(urlDb);
      expect(await selectedDb(dup)).toBe(urlDb);
    } finally {
      await Promise.all([client.quit(), dup.quit()]);
    }
  });
});

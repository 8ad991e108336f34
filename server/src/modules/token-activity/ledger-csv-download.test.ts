import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import { createTestContext, type TestContext } from '../../test/harness';
import { cookieHeader, verifiedUser } from '../../test/auth-helpers';
import type { LocalServer } from '../../test/local-server';
import { createHttpServer } from '../../http/http-server';

/** A download that reads nothing for this long is ended (short here; a minute in production). */
const STALL_MS = 6000;

let t: TestContext;
let server: LocalServer;
/** The server's side of every connection, to see what it has sent and whether it closed it. */
const serverSockets: net.Socket[] = [];
beforeAll(async () => {
  t = await createTestContext({ DOWNLOAD_STALL_TIMEOUT_MS: String(STALL_MS) });
  // The API's own server (its slow-client limits), as main.ts starts it.
  const http = createHttpServer(t.app, t.config);
  http.on('connection', (socket) => serverSockets.push(socket));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  server = {
    server: http,
    url: (path) => `http://127.0.0.1:${(http.address() as AddressInfo).port}${path}`,
    listen: async () => undefined,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
});
afterAll(async () => {
  await server.close();
  await t.close();
});

/**
 * `rows` ledger rows for the user in one statement, each with a long reason, so the CSV is far larger than the
 * socket buffers of a loopback connection (a client that stops reading stops the server's writes).
 */
async function bulkLedger(userId: string, rows: number): Promise<void> {
  await t.ctx.db.raw(
    `insert into token_ledger (user_id, delta_tenths, kind, idempotency_key, balance_after_tenths, reason)
     select ?, 1, 'adjustment', 'test:bulk:' || gen_random_uuid(), 100 + g,
            'Goodwill ' || g || ' ' || repeat('for a long support case ', 12)
     from generate_series(1, ?) g`,
    [userId, rows],
  );
}

/** Opens GET /api/user/ledger.csv on a raw socket and never reads the answer. */
function unreadDownload(cookie: string): net.Socket {
  const { port } = server.server.address() as AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  socket.pause();
  socket.on('error', () => {});
  socket.write(`GET /api/user/ledger.csv HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n\r\n`);
  return socket;
}

/** Postgres sessions busy with a token_ledger query right now, other than this one. */
async function ledgerQueriesInFlight(): Promise<number> {
  const { rows } = await t.ctx.db.raw(
    `select count(*)::int as n from pg_stat_activity
     where state <> 'idle' and query ilike '%token_ledger%' and pid <> pg_backend_pid()`,
  );
  return rows[0].n as number;
}

async function timed(path: string, cookie: string): Promise<{ status: number; ms: number }> {
  const start = performance.now();
  const res = await fetch(server.url(path), { headers: { cookie }, signal: AbortSignal.timeout(10_000) });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - start };
}

/**
 * The server's sockets of `count` downloads once all have stopped sending: none has sent a byte more in the last
 * half second (filling ten clients' buffers takes a few seconds of CSV writing on a loaded machine).
 */
async function settled(sockets: () => net.Socket[], count: number): Promise<net.Socket[]> {
  let last = -1;
  for (let i = 0; i < 60; i += 1) {
    await new Promise((r) => setTimeout(r, 500));
    const now = sockets();
    const sent = now.reduce((sum, s) => sum + s.bytesWritten, 0);
    if (now.length === count && sent === last) return now;
    last = sent;
  }
  throw new Error('the downloads never stopped sending');
}

const closed = (socket: net.Socket) =>
  new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

describe('GET /api/user/ledger.csv of a long history', () => {
  it('reads every row once, newest first, across its pages', async () => {
    const { agent, user } = await verifiedUser(t);
    await bulkLedger(user.id, 2345);
    const res = await agent.get('/api/user/ledger.csv').buffer(true).expect(200);
    const rows = parse(res.text, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2346);
    const ids = rows.map((r) => BigInt(r.id!));
    expect(ids.every((id, i) => i === 0 || id < ids[i - 1]!)).toBe(true);
    expect(rows[0]!.description).toMatch(/^Goodwill 2345 for a long/);
    expect(rows.at(-1)!.kind).toBe('free');
  });

  it('ten unread downloads hold no database connection, leave the API answering, and end after the stall limit', async () => {
    const { agent, user } = await verifiedUser(t);
    await bulkLedger(user.id, 40_000); // about 15 MB of CSV
    const cookie = cookieHeader(agent);
    const reads = ['/api/user/profile', '/api/jobs', '/api/health'];
    for (const path of reads) await timed(path, cookie); // the first calls fill caches
    const before = serverSockets.length;
    const clients = Array.from({ length: 10 }, () => unreadDownload(cookie));
    const downloads = await settled(() => serverSockets.slice(before), 10);
    // Each one is stuck part-way (the CSV is about 15 MB): the client's buffers are full and it reads nothing.
    for (const socket of downloads) expect(socket.bytesWritten).toBeLessThan(8_000_000);

    // The pool (10 connections) would be full with one held cursor per download; these need it.
    for (const path of reads) {
      const { status, ms } = await timed(path, cookie);
      expect([path, status]).toEqual([path, 200]);
      expect(ms).toBeLessThan(1000);
    }
    expect(await ledgerQueriesInFlight()).toBe(0);

    // The server ends the stalled downloads itself; nothing is left behind in Postgres.
    const stalled = Date.now();
    await Promise.all(downloads.map(closed));
    // Within the limit and its check interval of the stall (the socket's own timeout came up to twice as late).
    expect(Date.now() - stalled).toBeLessThan(STALL_MS * 1.5);
    clients.forEach((socket) => socket.destroy());
    expect(await ledgerQueriesInFlight()).toBe(0);
  }, 60_000);

  it('a client that hangs up mid-download leaves nothing running', async () => {
    const { agent, user } = await verifiedUser(t);
    await bulkLedger(user.id, 5000);
    const socket = unreadDownload(cookieHeader(agent));
    const firstBytes = new Promise<void>((resolve) => socket.once('readable', () => resolve()));
    await firstBytes;
    socket.destroy();
    await new Promise((r) => setTimeout(r, 300));
    expect(await ledgerQueriesInFlight()).toBe(0);
    expect((await timed('/api/user/profile', cookieHeader(agent))).status).toBe(200);
  });
});

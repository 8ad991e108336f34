import { EventEmitter } from 'node:events';
import { Client } from 'pg';
import type { Logger } from '@imagestudio/runtime';
import type { Db } from '../../lib/db';
import { findSessionUser, type SessionUser } from './users.repository';

/** The channel the users trigger (migration users_notify_changed) notifies with a user id, or '*' for all. */
export const USER_CHANGED_CHANNEL = 'user_changed';

/** Who the LISTEN connection says it is in pg_stat_activity. */
export const USER_CHANGES_APPLICATION_NAME = 'imagestudio-api-user-changes';

export interface SessionUserCacheOptions {
  /** Rows kept at most; the least recently used go first. */
  maxEntries?: number;
  /** First wait before reconnecting a lost LISTEN connection; doubles up to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
}

/**
 * Session user rows kept in this process between requests. A row is served from memory only while this
 * process's LISTEN connection is up: every UPDATE or DELETE of a users row notifies `user_changed` with its id
 * (a trigger, so no code path can forget), and the notice drops the row in every API process. While the
 * connection is down the cache is empty and unused (every request reads Postgres), and it is emptied again once
 * the connection is back, since notices sent in between were missed.
 */
export interface SessionUserCache {
  /** The user a session names (without the password hash): from memory when possible, else from Postgres. */
  get(id: string): Promise<SessionUser | null>;
  /** Drops the user's row and reads it from Postgres. */
  refresh(id: string): Promise<SessionUser | null>;
  /** True while the LISTEN connection is up and the cache is in use. */
  readonly listening: boolean;
  /** The Postgres backend pid of the LISTEN connection (null while down). */
  readonly backendPid: number | null;
  /** 'changed' (user id or '*') after a notice is applied, 'listening' and 'down' when the connection changes. */
  readonly events: EventEmitter;
  /** Closes the LISTEN connection for good. */
  close(): Promise<void>;
}

export function createSessionUserCache(
  deps: { db: Db; databaseUrl: string; logger: Logger },
  options: SessionUserCacheOptions = {},
): SessionUserCache {
  const { maxEntries = 10_000, retryMs = 500, maxRetryMs = 30_000 } = options;
  const rows = new Map<string, SessionUser>();
  const events = new EventEmitter();
  // Bumped by every notice and connection change: a Postgres read that overlapped one may predate the
  // change, so its row is handed out but not kept.
  let generation = 0;
  let listening = false;
  let client: Client | null = null;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let delay = retryMs;

  function forgetAll(): void {
    generation++;
    rows.clear();
  }

  function onNotice(payload: string | undefined): void {
    generation++;
    if (!payload || payload === '*') rows.clear();
    else rows.delete(payload);
    events.emit('changed', payload ?? '*');
  }

  function lost(c: Client, err?: Error): void {
    if (client !== c) return;
    client = null;
    const wasListening = listening;
    listening = false;
    forgetAll();
    c.end().catch(() => undefined);
    if (closed) return;
    if (wasListening)
      deps.logger.warn(
        { err: err?.message },
        'user change notices lost; reading session users from Postgres until reconnected',
      );
    retryTimer = setTimeout(() => void connect(), delay);
    retryTimer.unref();
    delay = Math.min(delay * 2, maxRetryMs);
    events.emit('down');
  }

  async function connect(): Promise<void> {
    if (closed) return;
    const c = new Client({
      connectionString: deps.databaseUrl,
      application_name: USER_CHANGES_APPLICATION_NAME,
      connectionTimeoutMillis: 5000,
      keepAlive: true,
    });
    client = c;
    c.on('notification', (msg) => {
      if (msg.channel === USER_CHANGED_CHANNEL) onNotice(msg.payload);
    });
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${USER_CHANGED_CHANNEL}`);
    } catch (err) {
      lost(c, err as Error);
      return;
    }
    if (client !== c) return;
    // Notices sent while the connection was down were missed: start from nothing.
    forgetAll();
    listening = true;
    delay = retryMs;
    deps.logger.debug('listening for user change notices');
    events.emit('listening');
  }

  async function read(id: string): Promise<SessionUser | null> {
    const seen = generation;
    const row = await findSessionUser(deps.db, id);
    if (row && listening && generation === seen) {
      rows.set(id, row);
      if (rows.size > maxEntries) rows.delete(rows.keys().next().value as string);
    }
    return row && { ...row };
  }

  void connect();

  return {
    get events() {
      return events;
    },
    get listening() {
      return listening;
    },
    get backendPid() {
      return listening && client ? ((client as unknown as { processID: number | null }).processID ?? null) : null;
    },
    async get(id) {
      if (listening) {
        const hit = rows.get(id);
        if (hit) {
          // Re-inserted so the Map's order is least recently used first.
          rows.delete(id);
          rows.set(id, hit);
          // A copy: a handler that edits req.user must not edit the cache.
          return { ...hit };
        }
      }
      return read(id);
    },
    async refresh(id) {
      rows.delete(id);
      return read(id);
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      listening = false;
      forgetAll();
      const c = client;
      client = null;
      if (c) await c.end().catch(() => undefined);
    },
  };
}

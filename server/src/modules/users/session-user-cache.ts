import { EventEmitter } from 'node:events';
import type { Logger } from '@imagestudio/runtime';
import type { Db } from '../../lib/db';
import { UserChangeListener } from './user-change-listener';
import { findSessionUser, type SessionUser } from './users.repository';

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
  const forgetAll = () => {
    generation++;
    rows.clear();
  };
  const listener = new UserChangeListener(
    deps,
    { retryMs, maxRetryMs },
    {
      notice(payload) {
        generation++;
        if (!payload || payload === '*') rows.clear();
        else rows.delete(payload);
        events.emit('changed', payload ?? '*');
      },
      reset: forgetAll,
      up: () => events.emit('listening'),
      down: () => events.emit('down'),
    },
  );

  async function read(id: string): Promise<SessionUser | null> {
    const seen = generation;
    const row = await findSessionUser(deps.db, id);
    if (row && listener.listening && generation === seen) {
      rows.set(id, row);
      if (rows.size > maxEntries) rows.delete(rows.keys().next().value as string);
    }
    return row && { ...row };
  }

  void listener.connect();

  return {
    get events() {
      return events;
    },
    get listening() {
      return listener.listening;
    },
    get backendPid() {
      return listener.backendPid;
    },
    async get(id) {
      if (listener.listening) {
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
    close: () => listener.close(),
  };
}

import { Client } from 'pg';
import type { Logger } from '@imagestudio/runtime';

/** The channel the users trigger (migration users_notify_changed) notifies with a user id, or '*' for all. */
export const USER_CHANGED_CHANNEL = 'user_changed';

/** Who the LISTEN connection says it is in pg_stat_activity. */
export const USER_CHANGES_APPLICATION_NAME = 'imagestudio-api-user-changes';

/** How long connecting the LISTEN connection may take. */
const CONNECT_TIMEOUT_MS = 5000;

/** What the listener tells its owner (the session user cache). */
export interface UserChangeHandlers {
  /** A notice: a user id, or '*' (or nothing) for every user. */
  notice(payload: string | undefined): void;
  /** Whatever was learnt may be stale now: the connection went down, came back, or was closed. */
  reset(): void;
  /** The connection is listening (again). */
  up(): void;
  /** The connection was lost; a reconnect is scheduled. */
  down(): void;
}

/**
 * The process's LISTEN connection for user change notices: connects, and after a loss reconnects after
 * `retryMs`, doubling up to `maxRetryMs` until it is back.
 */
export class UserChangeListener {
  private client: Client | null = null;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private delay: number;
  /** True while the connection is up and listening. */
  listening = false;

  constructor(
    private readonly deps: { databaseUrl: string; logger: Logger },
    private readonly retry: { retryMs: number; maxRetryMs: number },
    private readonly handlers: UserChangeHandlers,
  ) {
    this.delay = retry.retryMs;
  }

  /** The Postgres backend pid of the connection (null while down). */
  get backendPid(): number | null {
    const { client } = this;
    return this.listening && client ? ((client as unknown as { processID: number | null }).processID ?? null) : null;
  }

  async connect(): Promise<void> {
    if (this.closed) return;
    const c = new Client({
      connectionString: this.deps.databaseUrl,
      application_name: USER_CHANGES_APPLICATION_NAME,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    this.client = c;
    c.on('notification', (msg) => {
      if (msg.channel === USER_CHANGED_CHANNEL) this.handlers.notice(msg.payload);
    });
    c.on('error', (err) => this.lost(c, err));
    c.on('end', () => this.lost(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${USER_CHANGED_CHANNEL}`);
    } catch (err) {
      this.lost(c, err as Error);
      return;
    }
    if (this.client !== c) return;
    // Notices sent while the connection was down were missed: start from nothing.
    this.handlers.reset();
    this.listening = true;
    this.delay = this.retry.retryMs;
    this.deps.logger.debug('listening for user change notices');
    this.handlers.up();
  }

  /** Closes the connection for good. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.listening = false;
    this.handlers.reset();
    const c = this.client;
    this.client = null;
    if (c) await c.end().catch(() => undefined);
  }

  private lost(c: Client, err?: Error): void {
    if (this.client !== c) return;
    this.client = null;
    const wasListening = this.listening;
    this.listening = false;
    this.handlers.reset();
    c.end().catch(() => undefined);
    if (this.closed) return;
    if (wasListening)
      this.deps.logger.warn(
        { err: err?.message },
        'user change notices lost; reading session users from Postgres until reconnected',
      );
    this.retryTimer = setTimeout(() => void this.connect(), this.delay);
    this.retryTimer.unref();
    this.delay = Math.min(this.delay * 2, this.retry.maxRetryMs);
    this.handlers.down();
  }
}

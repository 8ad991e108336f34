export interface DeliveryLimits {
  inFlight: number;
  perHost: number;
  perUser: number;
  timeoutsBeforePause: number;
}

/** How many webhook deliveries one API process runs at once, in all, per destination and per user. */
export const WEBHOOK_LIMITS: Readonly<DeliveryLimits> = {
  inFlight: 20,
  perHost: 4,
  perUser: 4,
  /** Timeouts in a row after which a destination waits before its next try. */
  timeoutsBeforePause: 3,
};

export type DeliveryEnd = 'delivered' | 'failed' | 'timeout';

/** The destination a URL is delivered to: host and port as the URL spells them (`hooks.example.com:8443`). */
export function destinationOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * The bookkeeping of the continuous delivery pool: which destinations and users have deliveries in flight,
 * and which destinations timed out too often. A slot frees as soon as its delivery ends, so one slow
 * receiver holds at most `perHost` of the `inFlight` slots and never delays other destinations; a user's
 * many jobs hold at most `perUser`. A destination that timed out `timeoutsBeforePause` times in a row is
 * paused for `pauseMs(streak)`; any answer from it ends the streak.
 */
export class DeliveryPool {
  private readonly hosts = new Map<string, number>();
  private readonly users = new Map<string, number>();
  private readonly timeouts = new Map<string, { streak: number; until: number }>();
  private active = 0;

  constructor(
    private readonly pauseMs: (streak: number) => number,
    private readonly limits: Readonly<DeliveryLimits> = WEBHOOK_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  get inFlight(): number {
    return this.active;
  }

  get free(): number {
    return Math.max(0, this.limits.inFlight - this.active);
  }

  /** Destinations and users that cannot start another delivery now: the claim query skips their rows. */
  blocked(): { hosts: string[]; users: string[] } {
    const now = this.now();
    const hosts = new Set([...this.hosts].filter(([, n]) => n >= this.limits.perHost).map(([h]) => h));
    for (const [host, t] of this.timeouts) if (t.until > now) hosts.add(host);
    const users = [...this.users].filter(([, n]) => n >= this.limits.perUser).map(([u]) => u);
    return { hosts: [...hosts], users };
  }

  /** Until when `host` is paused (ms since the epoch), or undefined. */
  pausedUntil(host: string): number | undefined {
    const t = this.timeouts.get(host);
    return t && t.until > this.now() ? t.until : undefined;
  }

  /** Timeouts in a row of `host` so far. */
  timeoutStreak(host: string): number {
    return this.timeouts.get(host)?.streak ?? 0;
  }

  /** Takes a slot for a delivery to `host` of `user`'s job, when every limit allows it. */
  tryStart(host: string, user: string): boolean {
    if (this.active >= this.limits.inFlight) return false;
    if ((this.hosts.get(host) ?? 0) >= this.limits.perHost) return false;
    if ((this.users.get(user) ?? 0) >= this.limits.perUser) return false;
    if (this.pausedUntil(host) !== undefined) return false;
    this.active += 1;
    this.hosts.set(host, (this.hosts.get(host) ?? 0) + 1);
    this.users.set(user, (this.users.get(user) ?? 0) + 1);
    return true;
  }

  /** Frees the slot; returns the pause (ms) the destination starts now, if this timeout started one. */
  finish(host: string, user: string, end: DeliveryEnd): number | undefined {
    this.active -= 1;
    const dec = (map: Map<string, number>, key: string) => {
      const n = (map.get(key) ?? 1) - 1;
      if (n > 0) map.set(key, n);
      else map.delete(key);
    };
    dec(this.hosts, host);
    dec(this.users, user);
    if (end !== 'timeout') {
      this.timeouts.delete(host);
      return undefined;
    }
    const streak = (this.timeouts.get(host)?.streak ?? 0) + 1;
    if (streak < this.limits.timeoutsBeforePause) {
      this.timeouts.set(host, { streak, until: 0 });
      return undefined;
    }
    const pause = this.pauseMs(streak);
    this.timeouts.set(host, { streak, until: this.now() + pause });
    return pause;
  }
}

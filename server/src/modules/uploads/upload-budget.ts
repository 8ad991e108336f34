import fs from 'node:fs';
import path from 'node:path';
import type { Response } from 'express';
import { AppError, serviceUnavailable } from '../../lib/errors';

/** What a refused upload is told (translations in migrations/seeds/strings/server.json). */
export const UPLOAD_BUSY_MESSAGE = 'Too many large uploads are arriving right now. Please try again in a minute.';
export const UPLOAD_MESSAGES_FLOW = {
  busy: UPLOAD_BUSY_MESSAGE,
  perUser: (n: number) => `You already have ${n} uploads in progress. Please wait for one of them to finish.`,
  tooSlow: 'The upload arrived too slowly and was stopped. Please try again on a faster connection.',
  archiveBusy: 'One of your ZIP files is still being checked. Please wait for it to finish.',
} as const;
/** Why an upload was refused or ended, with the warning the API logs for each. */
export const UPLOAD_REFUSALS = {
  per_user: 'upload refused: too many uploads in flight for this user',
  disk_full: 'upload refused: upload disk budget full',
  too_slow: 'upload ended: body slower than the minimum rate',
  archive_busy: 'archive refused: another one of this user is being checked',
} as const;
export type UploadRefusal = keyof typeof UPLOAD_REFUSALS;

/** Seconds a refused client is asked to wait (Retry-After). */
export const RETRY_AFTER_S = 30;
/** What an upload reserves before its first byte: its declared length, but never more than this. */
export const FIRST_RESERVATION_BYTES = 64 * 1024;

export interface UploadLimits {
  /** Bytes of uploads (received bodies and inflated ZIP entries) one API process keeps on disk at once. */
  diskBytes: number;
  /** Uploads one account may have in flight in one API process at once from the browser (a session). */
  perUser: number;
  /**
   * Uploads one API key may have in flight in one API process at once. Scripts send several images in parallel
   * (remove.bg's customers 5-10), so a key gets more than a browser; each key of an account has its own.
   */
  perKey: number;
  /** A body arriving slower than this, averaged over `rateWindowMs`, is ended with 408. */
  minBytesPerSecond: number;
  rateWindowMs: number;
  /** Where received files are written (a folder per upload, removed when its response closes). */
  tmpDir: string;
}

/**
 * One API process's uploads. A body is streamed to a temporary file as it arrives, so what an upload costs is
 * disk, reserved as its bytes are received (and as a ZIP's entries are inflated): a client that declares 200 MB
 * and sends one byte holds one byte (plus a first reservation of at most 64 KB), not 200 MB. Each user has at
 * most `perUser` uploads in flight, each upload must keep up a minimum rate, and at most one ZIP per user is
 * opened and checked at a time. An upload is always let in when nothing else is reserved, so no size the
 * routes accept is refused for good.
 */
export class UploadBudget {
  private used = 0;
  private readonly users = new Map<string, number>();
  private readonly archives = new Set<string>();

  constructor(
    readonly limits: UploadLimits,
    /** Told of every refused or ended upload (the app logs a warning and counts it). */
    private readonly report: (reason: UploadRefusal, facts: Record<string, unknown>) => void = () => undefined,
  ) {}

  /** Reports an upload refused (or ended) for `reason`. */
  refused(reason: UploadRefusal, facts: Record<string, unknown>): void {
    this.report(reason, facts);
  }

  /** Bytes reserved now, by every open upload together. */
  get reservedBytes(): number {
    return this.used;
  }

  /** Uploads of `userId` (from the browser) or of the API key `apiKeyId` in flight now. */
  inFlight(userId: string, apiKeyId?: string): number {
    return this.users.get(holderOf(userId, apiKeyId)) ?? 0;
  }

  /** The in-flight limit of an upload made with an API key (per key) or in the browser (per account). */
  limitFor(apiKeyId: string | undefined): number {
    return apiKeyId ? this.limits.perKey : this.limits.perUser;
  }

  /**
   * Starts an upload for `userId` (made with `apiKeyId` when a key signed it), holding `firstBytes` (and whatever
   * it reserves later) until `res` closes. 'per_user' when the account (or the key) already has its limit of
   * uploads in flight, 'busy' when the budget is full.
   */
  open(userId: string, res: Response, firstBytes: number, apiKeyId?: string): UploadSession | 'per_user' | 'busy' {
    const holder = holderOf(userId, apiKeyId);
    if ((this.users.get(holder) ?? 0) >= this.limitFor(apiKeyId)) return 'per_user';
    if (this.used > 0 && this.used + firstBytes > this.limits.diskBytes) return 'busy';
    this.users.set(holder, (this.users.get(holder) ?? 0) + 1);
    const session = new UploadSession(this, userId, holder);
    session.take(firstBytes);
    res.once('close', () => void session.close());
    return session;
  }

  /** @internal Moves `bytes` into (or, negative, out of) the reservation; false when it would pass the limit. */
  adjust(bytes: number, held: number): boolean {
    // Alone in the budget, an upload may grow past it: the route's own size limits bound it.
    if (bytes > 0 && this.used > held && this.used + bytes > this.limits.diskBytes) return false;
    this.used += bytes;
    return true;
  }

  /** @internal */
  leave(holder: string): void {
    const n = (this.users.get(holder) ?? 0) - 1;
    if (n > 0) this.users.set(holder, n);
    else this.users.delete(holder);
  }

  /** @internal At most one archive per user is opened and checked at a time. */
  claimArchive(userId: string): boolean {
    if (this.archives.has(userId)) return false;
    this.archives.add(userId);
    return true;
  }

  /** @internal */
  releaseArchive(userId: string): void {
    this.archives.delete(userId);
  }
}

/** One upload: its reservation, its temporary folder, the rate its body arrives at. */
export class UploadSession {
  private held = 0;
  /** Bytes written to disk by this upload (its reservation never falls below them). */
  private written = 0;
  private dir: Promise<string> | null = null;
  private files = 0;
  private closed = false;
  private archiveClaimed = false;
  private received = 0;
  private samples: Array<{ at: number; received: number }> = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly cleanups: Array<() => void> = [];

  constructor(
    readonly budget: UploadBudget,
    readonly userId: string,
    /** Whose in-flight count this upload holds: the account's (browser) or its API key's. */
    private readonly holder: string = holderOf(userId),
  ) {}

  /** Bytes of the body received so far. */
  get receivedBytes(): number {
    return this.received;
  }

  /** Bytes this upload holds now. */
  get heldBytes(): number {
    return this.held;
  }

  /**
   * Counts `bytes` more on disk (a received chunk, an inflated one). The first bytes written use up the first
   * reservation; false when the rest does not fit the budget (the caller refuses the upload: 503).
   */
  reserve(bytes: number): boolean {
    if (this.closed) return false;
    const more = this.written + bytes - this.held;
    if (more > 0 && !this.budget.adjust(more, this.held)) return false;
    if (more > 0) this.held += more;
    this.written += bytes;
    return true;
  }

  /** Reports the full budget and returns the 503 (with Retry-After) that ends this upload. */
  budgetFull(stage: 'body' | 'archive'): AppError {
    // A closed upload (its client went away) refuses further bytes too, but that is not the budget's doing.
    if (!this.closed)
      this.budget.refused('disk_full', { userId: this.userId, reservedBytes: this.budget.reservedBytes, stage });
    return serviceUnavailable(UPLOAD_BUSY_MESSAGE, { 'Retry-After': String(RETRY_AFTER_S) });
  }

  /** @internal The first reservation, taken before anything is read. */
  take(bytes: number): void {
    this.budget.adjust(bytes, 0);
    this.held += bytes;
  }

  /** A fresh path in this upload's temporary folder (created on first use, removed when the response closes). */
  async tempPath(suffix = ''): Promise<string> {
    if (this.closed) throw new Error('upload already closed');
    const { tmpDir } = this.budget.limits;
    this.dir ??= fs.promises
      .mkdir(tmpDir, { recursive: true })
      .then(() => fs.promises.mkdtemp(path.join(tmpDir, 'upload-')));
    const name = `${(this.files += 1)}${suffix}`;
    return path.join(await this.dir, name);
  }

  /** Runs `cleanup` when the upload closes (an archive left open by a refused request, say). */
  onClose(cleanup: () => void): void {
    this.cleanups.push(cleanup);
  }

  /** false (429 for the caller) when another archive of this user is being checked now. */
  claimArchive(): boolean {
    if (this.archiveClaimed) return true;
    this.archiveClaimed = this.budget.claimArchive(this.userId);
    return this.archiveClaimed;
  }

  releaseArchive(): void {
    if (!this.archiveClaimed) return;
    this.archiveClaimed = false;
    this.budget.releaseArchive(this.userId);
  }

  /**
   * Watches the body's rate: once a whole window has passed, a body that brought fewer than
   * minBytesPerSecond x window bytes over the last window gets `onSlow` (once). Call `count` per chunk.
   */
  watchRate(onSlow: () => void): void {
    const { rateWindowMs, minBytesPerSecond } = this.budget.limits;
    const started = Date.now();
    this.samples = [{ at: started, received: 0 }];
    const tick = Math.max(20, Math.min(1000, rateWindowMs / 10));
    this.timer = setInterval(() => {
      const now = Date.now();
      this.samples.push({ at: now, received: this.received });
      while (this.samples.length > 1 && this.samples[1]!.at <= now - rateWindowMs) this.samples.shift();
      const oldest = this.samples[0]!;
      if (now - oldest.at < rateWindowMs) return;
      const perSecond = ((this.received - oldest.received) * 1000) / (now - oldest.at);
      if (perSecond < minBytesPerSecond) {
        this.stopWatching();
        onSlow();
      }
    }, tick);
    this.timer.unref();
  }

  /** Counts bytes of the body as they arrive (for the rate). */
  count(bytes: number): void {
    this.received += bytes;
  }

  stopWatching(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Gives everything back: the reservation, the user's slot, the archive claim, the temporary files. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopWatching();
    for (const cleanup of this.cleanups.splice(0)) {
      try {
        cleanup();
      } catch {
        // a cleanup that fails leaves nothing the folder's removal below does not take care of
      }
    }
    this.releaseArchive();
    this.budget.adjust(-this.held, this.held);
    this.held = 0;
    this.budget.leave(this.holder);
    if (this.dir) {
      const dir = await this.dir.catch(() => null);
      if (dir) await fs.promises.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }
}

/** The in-flight count an upload belongs to: its API key's, else its account's. */
export function holderOf(userId: string, apiKeyId?: string): string {
  return apiKeyId ? `key:${apiKeyId}` : `user:${userId}`;
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Counter, Gauge, type Registry } from 'prom-client';
import { UPLOAD_REFUSALS, UploadBudget } from './upload-budget';

/** An upload folder this old belongs to no live request (the whole request limit is 10 minutes by default). */
const STALE_UPLOAD_MS = 60 * 60 * 1000;

/**
 * Removes upload folders left in `tmpDir` by an API process that was killed mid-upload: those not changed for
 * `olderThanMs`. Returns how many it removed. Folders of live uploads (in any API process sharing the folder)
 * are younger than the request limit, so they are left alone.
 */
export async function sweepStaleUploads(tmpDir: string, olderThanMs = STALE_UPLOAD_MS): Promise<number> {
  const names = await fs.promises.readdir(tmpDir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names.filter((n) => n.startsWith('upload-'))) {
    const dir = path.join(tmpDir, name);
    const stat = await fs.promises.stat(dir).catch(() => null);
    if (!stat || Date.now() - stat.mtimeMs < olderThanMs) continue;
    await fs.promises.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    removed += 1;
  }
  return removed;
}

export function createUploadBudget(ctx: {
  config: {
    UPLOAD_DISK_MB: number;
    UPLOAD_MAX_PER_USER: number;
    UPLOAD_MAX_PER_API_KEY: number;
    UPLOAD_MIN_RATE_KB_S: number;
    UPLOAD_RATE_WINDOW_S: number;
    UPLOAD_TMP_DIR?: string;
  };
  logger: { warn: (facts: object, message: string) => void };
  metrics: { registry: Registry };
}): UploadBudget {
  const { config, logger } = ctx;
  const registers = [ctx.metrics.registry];
  const refusals = new Counter({
    name: 'upload_refusals_total',
    help: 'Uploads refused before or while their body arrived, by reason',
    labelNames: ['reason'] as const,
    registers,
  });
  const budget = new UploadBudget(
    {
      diskBytes: config.UPLOAD_DISK_MB * 1024 * 1024,
      perUser: config.UPLOAD_MAX_PER_USER,
      perKey: config.UPLOAD_MAX_PER_API_KEY,
      minBytesPerSecond: config.UPLOAD_MIN_RATE_KB_S * 1024,
      rateWindowMs: config.UPLOAD_RATE_WINDOW_S * 1000,
      tmpDir: config.UPLOAD_TMP_DIR ?? path.join(os.tmpdir(), 'imagestudio-uploads'),
    },
    (reason, facts) => {
      refusals.inc({ reason });
      logger.warn({ ...facts, reason }, UPLOAD_REFUSALS[reason]);
    },
  );
  void sweepStaleUploads(budget.limits.tmpDir).then((removed) => {
    if (removed > 0)
      logger.warn({ removed, tmpDir: budget.limits.tmpDir }, 'removed upload folders left by a stopped API');
  });
  new Gauge({
    name: 'upload_reserved_bytes',
    help: 'Bytes of uploads this API process holds on disk now (received bodies and inflated ZIP entries)',
    registers,
    collect() {
      this.set(budget.reservedBytes);
    },
  });
  return budget;
}

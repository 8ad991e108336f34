import { createHash } from 'node:crypto';
import type { Config } from '../../config';
import type { Db } from '../../lib/db';
import { readCatalogVersion } from './catalog.repository';

/** What catalog services need: the database and its cache (the API context, the CLI, tests). */
export interface CatalogDeps {
  db: Db;
  services: { catalog: CatalogCache };
}

/** A reply body serialised once, with its ETag, so a cached GET costs no JSON work and no hashing. */
export interface CachedReply {
  /** The serialised envelope, kept as bytes so each request sends it without re-encoding. */
  body: Buffer;
  etag: string;
}

/**
 * In-process cache of catalog data for one database. Every write to a catalog table bumps
 * `catalog_version` (a trigger), so the cache only has to compare that number, at most once per
 * CATALOG_CACHE_CHECK_MS, to notice changes made by any process: this one, the operator CLI, a seed.
 */
export class CatalogCache {
  private version: string | null = null;
  private checkedAt = 0;
  private checking: Promise<void> | null = null;
  private readonly entries = new Map<string, Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly checkMs: number,
  ) {}

  /** The value under `key`, loading it (once, even for concurrent callers) when missing or outdated. */
  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    await this.ensureFresh();
    let entry = this.entries.get(key) as Promise<T> | undefined;
    if (!entry) {
      // An async wrapper turns a thenable (a knex builder re-runs its query on every `then`) into one promise.
      entry = (async () => load())();
      this.entries.set(key, entry);
      // A failed load must not stay cached: the next call tries again.
      entry.catch(() => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      });
    }
    return entry;
  }

  /** Forces a version check on the next read (after a write made by this process). */
  invalidate(): void {
    this.checkedAt = 0;
  }

  private async ensureFresh(): Promise<void> {
    if (this.checkMs > 0 && Date.now() - this.checkedAt < this.checkMs) return;
    this.checking ??= (async () => {
      try {
        const version = await readCatalogVersion(this.db);
        if (version !== this.version) {
          this.entries.clear();
          this.version = version;
        }
        this.checkedAt = Date.now();
      } finally {
        this.checking = null;
      }
    })();
    await this.checking;
  }
}

/** The catalog cache of one app (or CLI run) over its connection pool. */
export function createCatalogCache(db: Db, config: Pick<Config, 'CATALOG_CACHE_CHECK_MS'>): CatalogCache {
  return new CatalogCache(db, config.CATALOG_CACHE_CHECK_MS);
}

/** The cache that `deps` carries. */
export function catalogCache(deps: CatalogDeps): CatalogCache {
  return deps.services.catalog;
}

/** Serialises the OK envelope around `payload` once and tags it with a content hash. */
export function toCachedReply(payload: unknown): CachedReply {
  const body = Buffer.from(JSON.stringify({ status: 'OK', payload }));
  return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

/** The cached envelope of `key`, built from `load` when missing. */
export function cachedReply(deps: CatalogDeps, key: string, load: () => Promise<unknown>): Promise<CachedReply> {
  return catalogCache(deps).get(`reply:${key}`, async () => toCachedReply(await load()));
}
